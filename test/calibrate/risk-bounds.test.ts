import { describe, expect, it } from 'vitest';
import {
  bentkusPValue,
  bernoulliDivergence,
  binomialTailPValue,
  clopperPearsonUpper,
  hoeffdingBentkusPValue,
  hoeffdingPValue,
} from '../../src/calibrate/risk-bounds.js';

describe('risk bounds: the known values', () => {
  it('300 cases with 6 false dones at alpha 0.05: Hoeffding–Bentkus p ≈ 0.018, exact binomial p ≈ 0.0066', () => {
    expect(hoeffdingBentkusPValue(6 / 300, 300, 0.05)).toBeCloseTo(0.018, 3);
    expect(binomialTailPValue(6, 300, 0.05)).toBeCloseTo(0.0066, 4);
    // Bentkus is the smaller of the two here; Hoeffding alone is exp(-300·h(0.02, 0.05)).
    expect(bentkusPValue(6 / 300, 300, 0.05)).toBeCloseTo(0.0179, 4);
    expect(hoeffdingPValue(6 / 300, 300, 0.05)).toBeCloseTo(Math.exp(-300 * bernoulliDivergence(0.02, 0.05)), 12);
    expect(hoeffdingPValue(6 / 300, 300, 0.05)).toBeCloseTo(0.0262, 4);
  });

  it('10 false dones of 300: p ≈ 0.31 (Hoeffding–Bentkus) and 0.11 (exact), not certified at delta 0.1', () => {
    expect(hoeffdingBentkusPValue(10 / 300, 300, 0.05)).toBeCloseTo(0.31, 2);
    expect(binomialTailPValue(10, 300, 0.05)).toBeGreaterThan(0.1);
    expect(binomialTailPValue(10, 300, 0.05)).toBeCloseTo(0.1123, 4);
  });

  it('Clopper–Pearson upper bound for 6 of 300 at 95% is about 3.9%', () => {
    expect(clopperPearsonUpper(6, 300, 0.95)).toBeCloseTo(0.0391, 4);
    // With no event the bound has the closed form 1 - (1 - confidence)^(1/n).
    expect(clopperPearsonUpper(0, 300, 0.95)).toBeCloseTo(1 - 0.05 ** (1 / 300), 10);
    expect(clopperPearsonUpper(300, 300, 0.95)).toBe(1);
    expect(clopperPearsonUpper(0, 0, 0.95)).toBe(1);
  });

  it('the exact tail is never above the Hoeffding–Bentkus p-value for 0/1 losses', () => {
    for (const n of [20, 100, 300, 1000]) {
      for (let k = 0; k <= n / 5; k++) {
        expect(binomialTailPValue(k, n, 0.05)).toBeLessThanOrEqual(hoeffdingBentkusPValue(k / n, n, 0.05) + 1e-15);
      }
    }
  });

  it('gives p = 1 when the observed risk is at or above alpha (Hoeffding) and with no cases', () => {
    expect(hoeffdingPValue(0.06, 300, 0.05)).toBe(1);
    expect(binomialTailPValue(0, 0, 0.05)).toBe(1);
    expect(hoeffdingBentkusPValue(0, 0, 0.05)).toBe(1);
    // With no loss at all the exact p is (1 - alpha)^n.
    expect(binomialTailPValue(0, 45, 0.05)).toBeCloseTo(0.95 ** 45, 12);
  });

  it('rejects counts and rates out of range', () => {
    expect(() => binomialTailPValue(5, 4, 0.05)).toThrow(RangeError);
    expect(() => binomialTailPValue(1.5, 4, 0.05)).toThrow(RangeError);
    expect(() => hoeffdingPValue(-0.1, 4, 0.05)).toThrow(RangeError);
    expect(() => clopperPearsonUpper(1, 4, 1)).toThrow(RangeError);
  });
});
