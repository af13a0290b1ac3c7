import { describe, expect, it } from 'vitest';
import { createSeededRandom, shuffleInPlace } from '../../src/calibrate/seeded-random.js';

describe('seeded random', () => {
  it('repeats its sequence for a seed and differs between seeds', () => {
    const a = createSeededRandom(42);
    const b = createSeededRandom(42);
    const first = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(first);
    const c = createSeededRandom(43);
    expect(Array.from({ length: 5 }, () => c())).not.toEqual(first);
    const high = createSeededRandom(2 ** 40 + 42);
    expect(high()).not.toBe(createSeededRandom(42)());
  });

  it('is roughly uniform in [0, 1)', () => {
    const random = createSeededRandom(1);
    const bins = new Array<number>(10).fill(0);
    for (let i = 0; i < 100_000; i++) {
      const value = random();
      expect(value >= 0 && value < 1).toBe(true);
      const bin = Math.floor(value * 10);
      bins[bin] = (bins[bin] ?? 0) + 1;
    }
    for (const count of bins) expect(Math.abs(count - 10_000)).toBeLessThan(500);
  });

  it('shuffles a permutation and rejects a non-integer seed', () => {
    const items = Array.from({ length: 50 }, (_, i) => i);
    const shuffled = shuffleInPlace([...items], createSeededRandom(9));
    expect(shuffled).not.toEqual(items);
    expect([...shuffled].sort((x, y) => x - y)).toEqual(items);
    expect(() => createSeededRandom(1.5)).toThrow(TypeError);
  });
});
