import { expectTypeOf, test } from 'vitest';
import {
  applyCalibrationMap,
  calibrateThresholds,
  evaluatePolicy,
  fitPlatt,
  policyThresholds,
  scoreCases,
  type CalibrationMap,
  type ScoreCasesOptions,
  type CalibrationResult,
  type LabelledCase,
  type ScoredCase,
} from '../../src/calibrate/index.js';
import { stopOnRepeatedFailures, type ScoreFailure } from '../../src/calibrate/score-cases.js';
import type { StopPolicyDocument } from '../../src/index.js';

test('the calibrate entry point types', () => {
  expectTypeOf(calibrateThresholds).parameter(0).toEqualTypeOf<readonly ScoredCase[]>();
  // Any policy document is calibrated; the result is always a policy, and the thresholds when certified.
  expectTypeOf(calibrateThresholds).parameter(1).exclude<undefined>().toHaveProperty('policy').toEqualTypeOf<StopPolicyDocument | undefined>();
  expectTypeOf<CalibrationResult['policy']>().toEqualTypeOf<StopPolicyDocument>();
  expectTypeOf<CalibrationResult['thresholds']>().toEqualTypeOf<{ readonly doneThreshold: number; readonly midBandLow: number } | null>();
  expectTypeOf(policyThresholds).parameter(0).toEqualTypeOf<StopPolicyDocument>();
  expectTypeOf(evaluatePolicy).parameter(1).toEqualTypeOf<StopPolicyDocument>();
  expectTypeOf<CalibrationResult['settings']['risk']>().toEqualTypeOf<'joint' | 'conditional'>();
  expectTypeOf(evaluatePolicy).returns.toHaveProperty('falseDoneRate').toEqualTypeOf<number | null>();
  expectTypeOf(fitPlatt).returns.toHaveProperty('map').toEqualTypeOf<{ readonly kind: 'platt'; readonly a: number; readonly b: number }>();
  expectTypeOf(applyCalibrationMap).parameter(0).toEqualTypeOf<CalibrationMap>();
  // A scored case is a labelled case with probabilities; an unscored one is not a scored one.
  expectTypeOf<ScoredCase>().toMatchTypeOf<LabelledCase>();
  expectTypeOf<{ label: 'done'; task: string; output: string }>().not.toMatchTypeOf<ScoredCase>();
  // The usual stop rule is a stopWhen; the result names the failure that stopped the run.
  expectTypeOf(stopOnRepeatedFailures).returns.toEqualTypeOf<NonNullable<ScoreCasesOptions['stopWhen']>>();
  expectTypeOf(scoreCases).returns.resolves.toHaveProperty('stoppedBy').toEqualTypeOf<ScoreFailure | undefined>();
});
