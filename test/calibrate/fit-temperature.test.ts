import { describe, expect, it } from 'vitest';
import { logit, sigmoid } from '../../src/calibrate/calibration-map.js';
import { createSeededRandom } from '../../src/calibrate/seeded-random.js';
import { fitTemperature, TEMPERATURE_RANGE } from '../../src/calibrate/fit-temperature.js';
import { normal } from './simulation.js';

const labelled = (score: number, done: boolean) => ({ probabilities: { a: score }, label: done ? ('done' as const) : ('not_done' as const) });

describe('fitTemperature', () => {
  it('sets the likelihood gradient to zero on a small hand-made set', () => {
    const cases = [labelled(0.9, true), labelled(0.8, false), labelled(0.3, false), labelled(0.6, true), labelled(0.2, true)];
    const { map } = fitTemperature(cases);
    const inverse = 1 / map.temperature;
    // d/dβ of the negative log-likelihood: Σ z·(σ(β·z) − y) = 0 at the optimum.
    const gradient = cases.reduce((sum, c) => {
      const z = logit(c.probabilities.a);
      return sum + z * (sigmoid(inverse * z) - (c.label === 'done' ? 1 : 0));
    }, 0);
    expect(gradient).toBeCloseTo(0, 6);
  });

  it('recovers the stretch of an over-confident model and the squeeze of an under-confident one', () => {
    for (const stretch of [2, 0.5]) {
      const random = createSeededRandom(stretch * 100);
      const cases = Array.from({ length: 20_000 }, () => {
        const trueLogit = 1.5 * normal(random);
        return labelled(sigmoid(trueLogit * stretch), random() < sigmoid(trueLogit));
      });
      expect(fitTemperature(cases).map.temperature).toBeCloseTo(stretch, 1);
    }
  });

  it('stops at the lower end of the range on separable data', () => {
    const { map, apply } = fitTemperature([labelled(0.4, false), labelled(0.6, true)]);
    expect(map.temperature).toBeCloseTo(TEMPERATURE_RANGE.min, 6);
    expect(apply(0.6)).toBeGreaterThan(0.99);
    expect(() => fitTemperature([])).toThrow(RangeError);
  });
});
