import { expectTypeOf, test } from 'vitest';
import {
  applyCalibrationMap,
  calibrateThresholds,
  evaluatePolicy,
  fitPlatt,
  scoreCases,
  stopOnRepeatedFailures,
  type CalibrationMap,
  type ScoreCasesOptions,
  type ScoreFailure,
  type CalibrationResult,
  type LabelledCase,
  type ScoredCase,
} from '../../src/calibrate/index.js';
import type { StopPolicy } from '../../src/core/stop-policy.js';

test('the calibrate entry point types', () => {
  expectTypeOf(calibrateThresholds).parameter(0).toEqualTypeOf<readonly ScoredCase[]>();
  expectTypeOf<CalibrationResult['policy']>().toEqualTypeOf<StopPolicy | null>();
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
