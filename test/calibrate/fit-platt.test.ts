import { describe, expect, it } from 'vitest';
import { logit, sigmoid } from '../../src/calibrate/calibration-map.js';
import { fitPlatt } from '../../src/calibrate/fit-platt.js';

const labelled = (score: number, done: boolean) => ({ probabilities: { a: score }, label: done ? ('done' as const) : ('not_done' as const) });

/** Platt's objective with smoothed targets, written out again here to check the fit against. */
function objective(cases: readonly ReturnType<typeof labelled>[], a: number, b: number): number {
  const positives = cases.filter((c) => c.label === 'done').length;
  const high = (positives + 1) / (positives + 2);
  const low = 1 / (cases.length - positives + 2);
  let sum = 0;
  for (const c of cases) {
    const t = c.label === 'done' ? high : low;
    const p = sigmoid(-(a * logit(c.probabilities.a) + b));
    sum -= t * Math.log(p) + (1 - t) * Math.log(1 - p);
  }
  return sum;
}

describe('fitPlatt', () => {
  it('stays finite on separable data and matches the smoothed targets by symmetry', () => {
    const cases = [labelled(0.2, false), labelled(0.3, false), labelled(0.7, true), labelled(0.8, true)];
    const { map, apply } = fitPlatt(cases);
    expect(map.kind).toBe('platt');
    expect(Number.isFinite(map.a)).toBe(true);
    expect(map.a).toBeLessThan(0);
    // The scores are symmetric about 0.5 and so are the targets (3/4 and 1/4): no offset.
    expect(map.b).toBeCloseTo(0, 6);
    // The gradient is zero: Σ (target − p) = 0 and Σ logit(s)·(target − p) = 0.
    const targets = [0.25, 0.25, 0.75, 0.75];
    const residuals = cases.map((c, i) => (targets[i] as number) - apply(c.probabilities.a));
    expect(residuals.reduce((s, r) => s + r, 0)).toBeCloseTo(0, 6);
    expect(residuals.reduce((s, r, i) => s + r * logit((cases[i] as ReturnType<typeof labelled>).probabilities.a), 0)).toBeCloseTo(0, 6);
    expect(apply(0.8)).toBeGreaterThan(apply(0.7));
    expect(apply(0.8)).toBeLessThan(1);
  });

  it('finds the likelihood optimum on overlapping data (checked against a brute-force search)', () => {
    const cases = [
      labelled(0.1, false), labelled(0.2, false), labelled(0.3, true), labelled(0.4, false), labelled(0.5, true),
      labelled(0.6, false), labelled(0.7, true), labelled(0.8, true), labelled(0.9, true), labelled(0.95, false),
    ];
    const { map } = fitPlatt(cases);
    let best = { a: 0, b: 0, value: Number.POSITIVE_INFINITY };
    for (let a = -3; a <= 1; a += 0.01) {
      for (let b = -2; b <= 2; b += 0.01) {
        const value = objective(cases, a, b);
        if (value < best.value) best = { a, b, value };
      }
    }
    expect(map.a).toBeCloseTo(best.a, 1);
    expect(map.b).toBeCloseTo(best.b, 1);
    expect(objective(cases, map.a, map.b)).toBeLessThanOrEqual(best.value + 1e-9);
  });

  it('falls back to a constant map rather than a decreasing one', () => {
    const { map, apply } = fitPlatt([labelled(0.9, false), labelled(0.8, false), labelled(0.2, true), labelled(0.1, true)]);
    expect(map.a).toBe(0);
    expect(apply(0.1)).toBeCloseTo(apply(0.9), 12);
    expect(apply(0.5)).toBeCloseTo(0.5, 9);
    expect(() => fitPlatt([])).toThrow(RangeError);
  });
});
