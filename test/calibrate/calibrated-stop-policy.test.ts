import { describe, expect, it } from 'vitest';
import type { CalibrationResult } from '../../src/calibrate/calibrate-thresholds.js';
import { calibratedStopPolicy } from '../../src/calibrate/calibrated-stop-policy.js';
import { decide } from '../../src/core/policy/decide.js';
import { initialStopState } from '../../src/core/policy/stop-state.js';
import type { TestEvidence } from '../../src/core/test-evidence.js';
import { createStopPolicy } from '../../src/core/stop-policy.js';

const settings = { alpha: 0.1, delta: 0.05, holdout: 0.3, seed: 1, risk: 'marginal', maxFalseHandoff: 0.2, method: 'exact', grid: [] };
const result = (policy: CalibrationResult['policy'], byTaskType: Record<string, CalibrationResult['policy']>): CalibrationResult =>
  ({ policy, settings, byTaskType: Object.fromEntries(Object.entries(byTaskType).map(([type, own]) => [type, { policy: own }])) }) as unknown as CalibrationResult;
const green: TestEvidence = { passed: true, failed: [], ran: 4 };
const red: TestEvidence = { passed: false, failed: ['a'], ran: 4 };

describe('calibratedStopPolicy', () => {
  it('decides each task type with its own thresholds and the rest with the overall ones', () => {
    const document = calibratedStopPolicy(result(createStopPolicy({ doneThreshold: 0.6, midBandLow: 0.3 }), { bugfix: createStopPolicy({ doneThreshold: 0.9, midBandLow: 0.5 }) }));
    const at = (taskType: string | undefined, p: number) =>
      decide(document, initialStopState(document), { step: 1, tests: green, probabilities: { a: p }, ...(taskType === undefined ? {} : { taskType }) }).decision.rule;
    expect(at('bugfix', 0.8)).toBe('bugfix.criteria_mid_band');
    expect(at('bugfix', 0.9)).toBe('bugfix.tests_and_criteria_passed');
    expect(at('feature', 0.8)).toBe('tests_and_criteria_passed');
    expect(at(undefined, 0.2)).toBe('criteria_low');
  });

  it('never stops a run as done where nothing was certified', () => {
    const document = calibratedStopPolicy(result(null, { bugfix: null, feature: createStopPolicy({ doneThreshold: 0.8 }) }));
    const decided = (taskType: string, tests: TestEvidence, p = 1) => decide(document, initialStopState(document), { step: 1, tests, probabilities: { a: p }, taskType }).decision;
    expect(decided('bugfix', green)).toMatchObject({ kind: 'stop', exit: 'need_help', reason: 'not_certified' });
    expect(decided('docs', green)).toMatchObject({ kind: 'stop', exit: 'need_help', reason: 'not_certified' });
    expect(decided('docs', red)).toMatchObject({ kind: 'retry', reason: 'tests_failed' });
    expect(decided('feature', green, 0.85)).toMatchObject({ kind: 'stop', exit: 'success', rule: 'feature.tests_and_criteria_passed' });
  });
});
