import { describe, expect, it } from 'vitest';
import { betaDensity, incompleteBeta } from '../../src/calibrate/incomplete-beta.js';

const relativeError = (actual: number, expected: number): number =>
  actual === expected ? 0 : Math.abs(actual - expected) / Math.abs(expected);

// I_x(a, b) and 1 − I_x(a, b) from mpmath's betainc at 30 digits.
const REFERENCE: readonly (readonly [x: number, a: number, b: number, lower: number, upper: number])[] = [
  [0.3, 0.5, 2.5, 0.79688933627994504, 0.20311066372005496],
  [0.9, 0.3, 0.7, 0.92436072210908989, 0.075639277890910108],
  [0.01, 2.5, 40.5, 0.024855346640256845, 0.97514465335974316],
  [0.6, 12.25, 7.75, 0.44135533752813319, 0.55864466247186681],
];

describe('incompleteBeta', () => {
  it.each(REFERENCE)('I_%d(%d, %d) and its complement match 30-digit values', (x, a, b, lower, upper) => {
    const tails = incompleteBeta(x, a, b);
    expect(relativeError(tails.lower, lower)).toBeLessThan(1e-14);
    expect(relativeError(tails.upper, upper)).toBeLessThan(1e-14);
  });

  it('matches the closed forms of Beta(1, 1), Beta(a, 1) and Beta(1, b)', () => {
    for (const x of [1e-300, 1e-12, 0.001, 0.25, 0.5, 0.75, 0.999]) {
      // exp of a large logarithm near x = 1e-300 keeps about 13 digits
      expect(relativeError(incompleteBeta(x, 1, 1).lower, x)).toBeLessThan(1e-12);
      for (const shape of [0.5, 3, 250, 100_000]) {
        expect(relativeError(incompleteBeta(x, shape, 1).lower, Math.exp(shape * Math.log(x)) || 0)).toBeLessThan(1e-11);
        expect(relativeError(incompleteBeta(x, 1, shape).upper, Math.exp(shape * Math.log1p(-x)) || 0)).toBeLessThan(1e-11);
      }
    }
  });

  it('is symmetric: I_x(a, b) = 1 − I_(1−x)(b, a)', () => {
    for (const [x, a, b] of [[0.25, 3, 9], [0.5, 40, 41], [0.875, 0.4, 6], [0.0625, 200, 3]] as const) {
      const direct = incompleteBeta(x, a, b);
      const mirrored = incompleteBeta(1 - x, b, a);
      expect(relativeError(direct.lower, mirrored.upper)).toBeLessThan(1e-14);
      expect(relativeError(direct.upper, mirrored.lower)).toBeLessThan(1e-14);
    }
  });

  it('has the ends 0 and 1 and refuses bad arguments', () => {
    expect(incompleteBeta(0, 2, 3)).toEqual({ lower: 0, upper: 1 });
    expect(incompleteBeta(1, 2, 3)).toEqual({ lower: 1, upper: 0 });
    expect(() => incompleteBeta(1.5, 2, 3)).toThrow(RangeError);
    expect(() => incompleteBeta(0.5, -1, 3)).toThrow(RangeError);
    expect(() => incompleteBeta(0.5, 2, Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it('has the beta density as its slope', () => {
    for (const [x, a, b] of [[0.3, 2, 5], [0.05, 7, 294], [0.5, 2501, 2500]] as const) {
      const h = x * 1e-6;
      const slope = (incompleteBeta(x + h, a, b).lower - incompleteBeta(x - h, a, b).lower) / (2 * h);
      expect(relativeError(betaDensity(x, a, b), slope)).toBeLessThan(1e-6);
    }
    expect(betaDensity(0, 2, 3)).toBe(0);
    expect(betaDensity(1, 2, 3)).toBe(0);
  });
});
