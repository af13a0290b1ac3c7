import { describe, expect, it } from 'vitest';
import type { CaseOutcome } from '../../src/calibrate/case-outcome.js';
import { thresholdCurve } from '../../src/calibrate/threshold-curve.js';

const outcomes: CaseOutcome[] = [
  { score: 0.9, evidence: 'passed', done: true },
  { score: 0.8, evidence: 'passed', done: false },
  { score: 0.3, evidence: 'passed', done: true },
  { score: 0.95, evidence: 'failed', done: false },
];

describe('thresholdCurve', () => {
  it('gives the rates at each threshold, ascending', () => {
    const curve = thresholdCurve(outcomes, [0.85, 0.5], 'joint', 0.4);
    expect(curve.map((point) => point.threshold)).toEqual([0.5, 0.85]);
    // At 0.5: two stop (one false), the 0.3 case is handed off (below 0.4), the failed one is handed off (above 0.5).
    expect(curve[0]).toEqual({ threshold: 0.5, falseDoneRate: 0.25, coverage: 0.5, doneShare: 0.5 });
    // At 0.85: one stops, 0.8 retries, 0.3 handed off, failed at 0.95 handed off.
    expect(curve[1]).toEqual({ threshold: 0.85, falseDoneRate: 0, coverage: 0.5, doneShare: 0.25 });
  });

  it('divides by the stopped cases for the conditional risk, null when none stop', () => {
    const curve = thresholdCurve(outcomes, [0.99, 0.5], 'conditional', 0);
    expect(curve[0]?.falseDoneRate).toBe(0.5);
    expect(curve[1]?.falseDoneRate).toBeNull();
    expect(thresholdCurve([], [0.5], 'joint', 0)[0]).toEqual({ threshold: 0.5, falseDoneRate: null, coverage: null, doneShare: null });
  });
});
