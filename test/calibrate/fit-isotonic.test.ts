import { describe, expect, it } from 'vitest';
import { fitIsotonic, poolAdjacentViolators } from '../../src/calibrate/fit-isotonic.js';

const labelled = (score: number, done: boolean) => ({ probabilities: { a: score }, label: done ? ('done' as const) : ('not_done' as const) });

describe('pool-adjacent-violators', () => {
  it('pools each violating pair on a known sequence', () => {
    expect(poolAdjacentViolators([1, 3, 2, 4, 3, 5])).toEqual([1, 2.5, 2.5, 3.5, 3.5, 5]);
    expect(poolAdjacentViolators([4, 3, 2, 1])).toEqual([2.5, 2.5, 2.5, 2.5]);
    expect(poolAdjacentViolators([1, 2, 3])).toEqual([1, 2, 3]);
    // A violation that reaches back over an earlier pool.
    expect(poolAdjacentViolators([1, 5, 4, 0])).toEqual([1, 3, 3, 3]);
    expect(poolAdjacentViolators([])).toEqual([]);
  });

  it('weights the pooled means', () => {
    expect(poolAdjacentViolators([1, 0], [1, 3])).toEqual([0.25, 0.25]);
    expect(() => poolAdjacentViolators([1, 0], [1])).toThrow(RangeError);
  });
});

describe('fitIsotonic', () => {
  it('fits the step function and interpolates between blocks', () => {
    const fit = fitIsotonic([labelled(0.3, false), labelled(0.1, false), labelled(0.2, true), labelled(0.5, true), labelled(0.4, true)]);
    expect(fit.map).toEqual({ kind: 'isotonic', x: [0.1, 0.2, 0.3, 0.4, 0.5], y: [0, 0.5, 0.5, 1, 1] });
    expect(fit.apply(0.05)).toBe(0);
    expect(fit.apply(0.25)).toBe(0.5);
    expect(fit.apply(0.35)).toBeCloseTo(0.75, 12);
    expect(fit.apply(0.9)).toBe(1);
  });

  it('pools equal scores before fitting and is non-decreasing', () => {
    const fit = fitIsotonic([labelled(0.6, true), labelled(0.6, false), labelled(0.6, false), labelled(0.9, true)]);
    expect(fit.map).toEqual({ kind: 'isotonic', x: [0.6, 0.9], y: [1 / 3, 1] });
    let previous = -1;
    for (let p = 0; p <= 1; p += 0.01) {
      expect(fit.apply(p)).toBeGreaterThanOrEqual(previous);
      previous = fit.apply(p);
    }
    expect(() => fitIsotonic([])).toThrow(RangeError);
  });
});
