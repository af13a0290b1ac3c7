import { describe, expect, it } from 'vitest';
import { niceTicks } from '../../src/calibrate/nice-ticks.js';

describe('niceTicks', () => {
  it.each([
    [1, [0, 0.2, 0.4, 0.6, 0.8, 1]],
    [0.11, [0, 0.02, 0.04, 0.06, 0.08, 0.1, 0.12]],
    [0.275, [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3]],
    [0.5, [0, 0.1, 0.2, 0.3, 0.4, 0.5]],
    [0.0033, [0, 0.0005, 0.001, 0.0015, 0.002, 0.0025, 0.003, 0.0035]],
    [37, [0, 10, 20, 30, 40]],
  ])('ticks up to %d are %j', (max, ticks) => {
    expect(niceTicks(max)).toEqual(ticks);
  });

  it('steps by 1, 2 or 5 times a power of ten and ends at or above the maximum', () => {
    for (let max = 0.001; max < 2; max *= 1.37) {
      const ticks = niceTicks(max);
      const step = (ticks[1] as number) - (ticks[0] as number);
      const mantissa = Number((step / 10 ** Math.floor(Math.log10(step))).toFixed(6));
      expect([1, 2, 5]).toContain(mantissa);
      expect(ticks[0]).toBe(0);
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(max);
      expect(ticks.at(-2)).toBeLessThan(max);
      expect(ticks.length).toBeGreaterThanOrEqual(3);
      expect(ticks.length).toBeLessThanOrEqual(12);
    }
  });

  it('falls back to [0, 1] for a maximum that is not positive', () => {
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(Number.NaN)).toEqual([0, 1]);
  });
});
