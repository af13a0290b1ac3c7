import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCost } from '../../src/core/format-cost.js';

describe('formatCost', () => {
  it.each([
    [2.0100000000000002, '2.01'],
    [0.1 + 0.2, '0.30'],
    [2, '2.00'],
    [0, '0.00'],
    [0.00042, '0.0004'],
    [0.12345, '0.1235'],
    [1234.5, '1234.50'],
    [0.00004, '<0.0001'],
    [-0.5, '-0.50'],
    [-0, '0.00'],
    [Number.NaN, 'NaN'],
  ])('prints %s as %s', (cost, text) => {
    expect(formatCost(cost)).toBe(text);
  });

  it('has 2 to 4 decimals and stays within 0.00005 of the amount', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.0001, max: 1e6, noNaN: true }), (cost) => {
        const text = formatCost(cost);
        expect(text).toMatch(/^\d+\.\d{2,4}$/);
        expect(Math.abs(Number(text) - cost)).toBeLessThanOrEqual(0.00005 + cost * Number.EPSILON * 4);
      }),
    );
  });

  it('never prints floating-point noise for sums of prices', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 100_000 }), { maxLength: 40 }), (tenthsOfCents) => {
        const sum = tenthsOfCents.reduce((total, value) => total + value / 10_000, 0);
        expect(formatCost(sum).length).toBeLessThanOrEqual(String(Math.floor(sum)).length + 5);
      }),
    );
  });
});
