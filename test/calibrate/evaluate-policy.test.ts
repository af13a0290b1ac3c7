import { describe, expect, it } from 'vitest';
import { evaluatePolicy } from '../../src/calibrate/evaluate-policy.js';
import type { ScoredCase } from '../../src/calibrate/labelled-case.js';
import { createStopPolicy } from '../../src/core/stop-policy.js';

const passed = { passed: true, failed: [], ran: 4 };
const failed = { passed: false, failed: ['t'], ran: 4 };
const none = { passed: false, failed: [], ran: 0 };

const cases: ScoredCase[] = [
  { probabilities: { a: 0.9 }, tests: passed, label: 'done' }, // stop_done
  { probabilities: { a: 0.95 }, tests: passed, label: 'not_done' }, // stop_done: a false done
  { probabilities: { a: 0.5 }, tests: passed, label: 'done' }, // mid band: retry
  { probabilities: { a: 0.2 }, tests: passed, label: 'done' }, // criteria low: a false hand-off
  { probabilities: { a: 0.2 }, tests: passed, label: 'not_done' }, // criteria low
  { probabilities: { a: 0.99 }, tests: failed, label: 'not_done' }, // evidence contradicts: hand-off
  { probabilities: { a: 0.3 }, tests: failed, label: 'not_done' }, // tests failed: retry
  { probabilities: { a: 0.99 }, tests: none, label: 'not_done' }, // no tests ran: retry
];

describe('evaluatePolicy', () => {
  it('counts actions per label through the action table and derives the rates', () => {
    const report = evaluatePolicy(cases, createStopPolicy({ doneThreshold: 0.7, midBandLow: 0.4 }));
    expect(report.confusion).toEqual({
      stopDone: { done: 1, notDone: 1 },
      retry: { done: 1, notDone: 2 },
      handoffHuman: { done: 1, notDone: 2 },
    });
    expect(report.byReason).toEqual({
      tests_and_criteria_passed: 2,
      criteria_mid_band: 1,
      criteria_low: 2,
      evidence_contradicts_model: 1,
      tests_failed: 1,
      no_tests_ran: 1,
    });
    expect(report).toMatchObject({
      cases: 8,
      falseDones: 1,
      falseHandoffs: 1,
      falseDoneRate: 1 / 8,
      precision: 0.5,
      falseHandoffRate: 1 / 8,
      coverage: 5 / 8,
      doneShare: 2 / 8,
      retryShare: 3 / 8,
    });
  });

  it('gives null rates for no cases and rejects unscored ones', () => {
    const empty = evaluatePolicy([], createStopPolicy());
    expect(empty).toMatchObject({ cases: 0, falseDoneRate: null, precision: null, coverage: null });
    expect(() => evaluatePolicy([{ label: 'done', id: 'x' } as unknown as ScoredCase], createStopPolicy())).toThrow(/case 0 \(x\)/);
  });
});
