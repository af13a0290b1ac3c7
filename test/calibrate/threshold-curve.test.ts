import { describe, expect, it } from 'vitest';
import type { ScoredCase } from '../../src/calibrate/labelled-case.js';
import { thresholdCurve } from '../../src/calibrate/threshold-curve.js';
import { parseStopPolicy } from '../../src/core/policy/parse-stop-policy.js';
import { SEED_STOP_POLICY } from '../../src/core/policy/seed-stop-policy.js';

const passed = { passed: true, failed: [], ran: 4 };
const failed = { passed: false, failed: ['t'], ran: 4 };
const outcomes: ScoredCase[] = [
  { probabilities: { a: 0.9 }, tests: passed, label: 'done' },
  { probabilities: { a: 0.8 }, tests: passed, label: 'not_done' },
  { probabilities: { a: 0.3 }, tests: passed, label: 'done' },
  { probabilities: { a: 0.95 }, tests: failed, label: 'not_done' },
];

describe('thresholdCurve', () => {
  it('gives the rates at each threshold, ascending', () => {
    const curve = thresholdCurve(outcomes, SEED_STOP_POLICY, [0.85, 0.5], 'joint', 0.4);
    expect(curve.map((point) => point.threshold)).toEqual([0.5, 0.85]);
    // At 0.5: two stop (one false), the 0.3 case is handed off (below 0.4), the failed one is handed off (above 0.5).
    expect(curve[0]).toEqual({ threshold: 0.5, falseDoneRate: 0.25, coverage: 0.5, doneShare: 0.5 });
    // At 0.85: one stops, 0.8 retries, 0.3 handed off, failed at 0.95 handed off.
    expect(curve[1]).toEqual({ threshold: 0.85, falseDoneRate: 0, coverage: 0.5, doneShare: 0.25 });
  });

  it('divides by the stopped cases for the conditional risk, null when none stop', () => {
    const curve = thresholdCurve(outcomes, SEED_STOP_POLICY, [0.99, 0.5], 'conditional', 0);
    expect(curve[0]?.falseDoneRate).toBe(0.5);
    expect(curve[1]?.falseDoneRate).toBeNull();
    expect(thresholdCurve([], SEED_STOP_POLICY, [0.5], 'joint', 0)[0]).toEqual({ threshold: 0.5, falseDoneRate: null, coverage: null, doneShare: null });
  });

  it('decides the cases with the policy given: a policy that hands off nothing covers every case', () => {
    const lenient = parseStopPolicy({
      version: 2,
      rules: [
        { id: 'ok', when: { criteria: { gte: 0.7 } }, then: { kind: 'stop', exit: 'success', reason: 'ok' } },
        { id: 'again', when: { always: true }, then: { kind: 'retry', reason: 'again' } },
      ],
    });
    // At 0.85 it stops the 0.9 case and the failing 0.95 one (a false done), and retries the rest.
    expect(thresholdCurve(outcomes, lenient, [0.85], 'joint', 0.4)).toEqual([{ threshold: 0.85, falseDoneRate: 0.25, coverage: 1, doneShare: 0.5 }]);
  });
});
