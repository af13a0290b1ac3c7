import betaQuantileReference from '@stdlib/stats-base-dists-beta-quantile';
import { describe, expect, it } from 'vitest';
import { betaQuantile } from '../../src/calibrate/beta-quantile.js';
import { incompleteBeta } from '../../src/calibrate/incomplete-beta.js';

const relativeError = (actual: number, expected: number): number =>
  actual === expected ? 0 : Math.abs(actual - expected) / Math.abs(expected);

// The root of I_x(a, b) = p by 200 bisections on exact binomial sums in 50-digit arithmetic (mpmath).
const REFERENCE: readonly (readonly [p: number, a: number, b: number, x: number])[] = [
  [0.95, 7, 294, 0.039091058680958581],
  [0.9, 1, 100000, 2.3025585837069602e-5],
  [0.9, 3, 99998, 5.322231926194448e-5],
  [1e-10, 2, 50, 2.8005729785954545e-7],
  [0.9999999999, 50, 2, 0.99999971994269055],
  [0.5, 2501, 2500, 0.50009999333306677],
  [0.99, 5001, 95000, 0.051626166059612902],
  [0.999, 1, 1, 0.999],
  [0.05, 1, 1, 0.05],
  [0.9, 11, 1, 0.99046749643128451],
];

describe('betaQuantile', () => {
  it.each(REFERENCE)('the %d quantile of Beta(%d, %d) matches 50-digit bisection', (p, a, b, expected) => {
    // about 1e-16 relative per unit of a + b is lost to rounding 1 − x; 10^5 cases keep 12 digits
    expect(relativeError(betaQuantile(p, a, b), expected)).toBeLessThan(a + b > 10_000 ? 2e-12 : 1e-13);
  });

  it('matches the closed forms of Beta(1, b) and Beta(a, 1), with p near 0 and near 1', () => {
    for (const shape of [1, 2, 30, 1000, 100_000]) {
      for (const p of [1e-12, 1e-6, 0.05, 0.5, 0.9, 0.95, 0.999, 1 - 1e-9]) {
        // Beta(1, b): 1 − (1 − p)^(1/b); Beta(a, 1): p^(1/a)
        expect(relativeError(betaQuantile(p, 1, shape), -Math.expm1(Math.log1p(-p) / shape))).toBeLessThan(1e-11);
        expect(relativeError(betaQuantile(p, shape, 1), Math.exp(Math.log(p) / shape))).toBeLessThan(1e-13);
      }
    }
  });

  it('inverts the incomplete beta to within a few units in the last place, on the smaller tail', () => {
    const slack = 1e-11;
    for (const [a, b] of [[1, 300], [7, 294], [0.5, 0.5], [0.3, 20], [40, 0.7], [2501, 2500], [1, 100_000], [99_000, 1001]] as const) {
      for (const p of [1e-80, 1e-30, 1e-8, 0.01, 0.1, 0.5, 0.9, 0.99, 1 - 1e-9]) {
        const x = betaQuantile(p, a, b);
        // the root lies between x·(1 − 4ε) and x·(1 + 4ε): I_x − p changes sign there
        const below = incompleteBeta(Math.max(0, x * (1 - 4 * Number.EPSILON)), a, b);
        const above = incompleteBeta(Math.min(1, x * (1 + 4 * Number.EPSILON)), a, b);
        if (p > 0.5) {
          expect(below.upper).toBeGreaterThanOrEqual((1 - p) * (1 - slack));
          expect(above.upper).toBeLessThanOrEqual((1 - p) * (1 + slack));
        } else {
          expect(below.lower).toBeLessThanOrEqual(p * (1 + slack));
          expect(above.lower).toBeGreaterThanOrEqual(p * (1 - slack));
        }
      }
    }
  });

  it('returns the ends for p = 0 and p = 1 and refuses bad arguments', () => {
    expect(betaQuantile(0, 3, 4)).toBe(0);
    expect(betaQuantile(1, 3, 4)).toBe(1);
    expect(() => betaQuantile(1.2, 3, 4)).toThrow(RangeError);
    expect(() => betaQuantile(0.5, 0, 4)).toThrow(RangeError);
  });

  it('agrees with @stdlib/stats-base-dists-beta-quantile on the Clopper–Pearson bounds', () => {
    let worst = 0;
    for (const n of [1, 2, 5, 10, 30, 100, 300, 1000, 5000, 20_000, 100_000]) {
      for (const confidence of [1e-10, 1e-4, 0.01, 0.05, 0.1, 0.5, 0.9, 0.95, 0.99, 0.999, 1 - 1e-10]) {
        for (const k of new Set([0, 1, 2, Math.floor(n / 20), Math.floor(n / 2), n - 2, n - 1])) {
          if (k < 0 || k >= n) continue;
          worst = Math.max(worst, relativeError(betaQuantile(confidence, k + 1, n - k), betaQuantileReference(confidence, k + 1, n - k)));
        }
      }
    }
    expect(worst).toBeLessThan(1e-11);
  });
});
