import { describe, expect, it } from 'vitest';
import { logGamma } from '../../src/calibrate/log-gamma.js';
import { predictiveBand } from '../../src/report/beta-binomial-band.js';

/** P(X = k) for X ~ BetaBinomial(n, a, b), from the closed form. */
function pmf(k: number, n: number, a: number, b: number): number {
  const logChoose = logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1);
  const logBeta = (x: number, y: number) => logGamma(x) + logGamma(y) - logGamma(x + y);
  return Math.exp(logChoose + logBeta(k + a, n - k + b) - logBeta(a, b));
}

function upperTail(k: number, n: number, a: number, b: number): number {
  let sum = 0;
  for (let j = k; j <= n; j += 1) sum += pmf(j, n, a, b);
  return sum;
}

describe('predictiveBand', () => {
  it('gives the upper tail of the beta-binomial predictive, as the closed form does', () => {
    for (const [k0, n0, observed, n] of [
      [10, 100, 7, 50],
      [0, 40, 3, 30],
      [35, 40, 30, 30],
      [120, 1500, 60, 400],
    ] as const) {
      const band = predictiveBand(k0, n0, observed, n, 0.01);
      expect(band.pValue).toBeCloseTo(upperTail(observed, n, k0 + 1, n0 - k0 + 1), 9);
      // high is the largest count not in the upper 1% tail, low the smallest not in the lower one
      expect(upperTail(band.high + 1, n, k0 + 1, n0 - k0 + 1)).toBeLessThanOrEqual(0.01);
      expect(upperTail(band.high, n, k0 + 1, n0 - k0 + 1)).toBeGreaterThan(0.01);
      expect(1 - upperTail(band.low, n, k0 + 1, n0 - k0 + 1)).toBeLessThanOrEqual(0.01 + 1e-12);
      expect(band.low).toBeLessThanOrEqual(band.high);
    }
  });

  it('is 1 for no event, and falls as the count rises', () => {
    expect(predictiveBand(5, 100, 0, 50, 0.01).pValue).toBe(1);
    const tails = [0, 5, 10, 15, 20].map((k) => predictiveBand(5, 100, k, 50, 0.01).pValue);
    for (let i = 1; i < tails.length; i += 1) expect(tails[i]).toBeLessThan(tails[i - 1] as number);
  });

  it('widens with a shorter baseline at the same share: its own uncertainty counts', () => {
    const short = predictiveBand(2, 20, 0, 100, 0.01);
    const long = predictiveBand(200, 2000, 0, 100, 0.01);
    expect(short.high).toBeGreaterThan(long.high);
    expect(short.low).toBeLessThanOrEqual(long.low);
  });

  it('stays finite for large buckets', () => {
    const band = predictiveBand(8000, 100000, 2500, 20000, 0.001);
    expect(Number.isFinite(band.pValue)).toBe(true);
    expect(band.high / 20000).toBeGreaterThan(0.08);
    expect(band.high / 20000).toBeLessThan(0.09);
    expect(band.pValue).toBeLessThan(1e-10);
  });
});
