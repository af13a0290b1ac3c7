import { describe, expect, it } from 'vitest';
import { logGamma, stirlingError } from '../../src/calibrate/log-gamma.js';

const relativeError = (actual: number, expected: number): number => Math.abs(actual - expected) / Math.abs(expected);

// ln Γ(z) from mpmath's loggamma at 30 digits.
const REFERENCE: readonly (readonly [z: number, value: number])[] = [
  [0.1, 2.252712651734205902],
  [0.5, 0.57236494292470008707],
  [1.5, -0.12078223763524522235],
  [3.7, 1.4280723266653881292],
  [14.9, 24.9241320022172783],
  [15.1, 25.458999750992663083],
  [120.5, 455.41760044623451043],
  [100000.5, 1051293.46543513938],
];

describe('logGamma', () => {
  it.each(REFERENCE)('ln Γ(%d) matches 30-digit values', (z, value) => {
    expect(relativeError(logGamma(z), value)).toBeLessThan(1e-14);
  });

  it('is ln((z − 1)!) at integers and 0 at 1 and 2', () => {
    let factorial = 1;
    for (let z = 2; z <= 30; z += 1) {
      factorial *= z - 1;
      expect(relativeError(logGamma(z), Math.log(factorial)) || 0).toBeLessThan(1e-14);
    }
    expect(Math.abs(logGamma(1))).toBeLessThan(1e-15);
    expect(Math.abs(logGamma(2))).toBeLessThan(1e-15);
  });

  it('refuses z ≤ 0', () => {
    expect(() => logGamma(0)).toThrow(RangeError);
    expect(() => logGamma(-2.5)).toThrow(RangeError);
  });
});

describe('stirlingError', () => {
  it('is ln Γ(z) minus Stirling’s formula on both sides of the switch to the series', () => {
    for (const [z, value] of REFERENCE) {
      const stirling = (z - 0.5) * Math.log(z) - z + 0.5 * Math.log(2 * Math.PI);
      // the series above 15 must agree with the reference to far better than the size of the error itself (~1/12z)
      expect(Math.abs(stirlingError(z) - (value - stirling))).toBeLessThan(z > 1000 ? 1e-9 : 1e-13);
    }
    expect(relativeError(stirlingError(1e6), 1 / 12e6)).toBeLessThan(1e-9);
  });
});
