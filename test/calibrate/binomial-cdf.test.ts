import binomialCdfReference from '@stdlib/stats-base-dists-binomial-cdf';
import { describe, expect, it } from 'vitest';
import { binomialCdf } from '../../src/calibrate/binomial-cdf.js';

const relativeError = (actual: number, expected: number): number =>
  actual === expected ? 0 : Math.abs(actual - expected) / Math.abs(expected);

// P(X ≤ k) by exact summation of the binomial terms in 50-digit arithmetic (mpmath), p as the double shown.
const REFERENCE: readonly (readonly [k: number, n: number, p: number, cdf: number])[] = [
  [6, 300, 0.05, 0.0065793744008015523],
  [0, 1, 0.5, 0.5],
  [0, 1000, 0.001, 0.36769542477096404],
  [3, 10, 0.999999, 1.1999968502443469e-40],
  [0, 10, 1e-12, 0.99999999999],
  [9, 10, 0.5, 0.9990234375],
  [50, 100000, 0.001, 2.3711826624976387e-8],
  [3000, 100000, 0.05, 1.3523611767948407e-214],
  [4900, 100000, 0.05, 0.074076266155551478],
  [5000, 100000, 0.05, 0.50376240480466228],
  [70000, 100000, 0.7, 0.50119294873114542],
  [99990, 100000, 0.99999, 1.1138493308658083e-7],
  [100, 1000, 0.5, 6.7017177900062963e-162],
  [10, 1000, 0.5, 2.4833387914896353e-278],
  [0, 100000, 0.005, 2.0327060161727279e-218],
];

describe('binomialCdf', () => {
  it.each(REFERENCE)('P(X ≤ %d) for Binomial(%d, %d) matches 50-digit summation', (k, n, p, expected) => {
    // about 1e-16 relative per case is lost to rounding 1 − p; 10^5 cases keep 12 digits
    expect(relativeError(binomialCdf(k, n, p), expected)).toBeLessThan(n > 10_000 ? 2e-12 : 1e-13);
  });

  it('is (1 − p)^n at k = 0 and 1 at k = n, for n up to 10^5', () => {
    for (const n of [1, 7, 300, 10_000, 100_000]) {
      for (const p of [1e-9, 1e-4, 0.01, 0.3, 0.5]) {
        expect(relativeError(binomialCdf(0, n, p), Math.exp(n * Math.log1p(-p)))).toBeLessThan(1e-12);
        expect(binomialCdf(n, n, p)).toBe(1);
      }
    }
  });

  it('handles counts and rates at the edges', () => {
    expect(binomialCdf(-1, 10, 0.3)).toBe(0);
    expect(binomialCdf(12, 10, 0.3)).toBe(1);
    expect(binomialCdf(3, 10, 0)).toBe(1);
    expect(binomialCdf(3, 10, 1)).toBe(0);
    expect(binomialCdf(0, 0, 0.3)).toBe(1);
    expect(binomialCdf(2.7, 10, 0.3)).toBe(binomialCdf(2, 10, 0.3));
    expect(() => binomialCdf(1, -1, 0.3)).toThrow(RangeError);
    expect(() => binomialCdf(1, 10, 1.5)).toThrow(RangeError);
  });

  it('agrees with @stdlib/stats-base-dists-binomial-cdf across n, k and p', () => {
    let worst = 0;
    for (const n of [1, 2, 5, 10, 30, 100, 300, 1000, 5000, 20_000, 100_000]) {
      for (const p of [1e-12, 1e-6, 0.001, 0.01, 0.05, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99, 0.999999]) {
        const mean = Math.floor(n * p);
        for (const k of new Set([0, 1, 2, Math.floor(mean / 2), mean, mean + 1, 2 * mean + 3, n - 1, n])) {
          if (k < 0 || k > n) continue;
          const expected = binomialCdfReference(k, n, p);
          if (expected < 1e-290) continue;
          worst = Math.max(worst, relativeError(binomialCdf(k, n, p), expected));
        }
      }
    }
    // @stdlib itself is off by up to about 4e-12 near the middle for n = 10^5 (see the 50-digit values above)
    expect(worst).toBeLessThan(1e-11);
  });
});
