import { describe, expect, it } from 'vitest';
import { brierScore, expectedCalibrationError, reliabilityBins } from '../../src/calibrate/calibration-metrics.js';

const cases = [
  { probabilities: { a: 0.8 }, label: 'done' as const },
  { probabilities: { a: 0.3 }, label: 'not_done' as const },
  { probabilities: { a: 0.6, b: 0.95 }, label: 'done' as const },
  { probabilities: { a: 0.9 }, label: 'not_done' as const },
];

describe('calibration metrics', () => {
  it('Brier score: mean of (score - label)^2 with the lowest criterion as the score', () => {
    // (0.2² + 0.3² + 0.4² + 0.9²) / 4 = (0.04 + 0.09 + 0.16 + 0.81) / 4
    expect(brierScore(cases)).toBeCloseTo(0.275, 12);
    expect(brierScore([{ probabilities: { a: 1 }, label: 'done' }])).toBe(0);
    expect(brierScore([])).toBeNaN();
  });

  it('reliability bins: equal width, the last bin closed at 1, empty bins without means', () => {
    const bins = reliabilityBins(cases, 2);
    expect(bins).toHaveLength(2);
    expect(bins[0]).toEqual({ lower: 0, upper: 0.5, count: 1, meanProbability: 0.3, doneRate: 0 });
    expect(bins[1]?.count).toBe(3);
    expect(bins[1]?.meanProbability).toBeCloseTo(2.3 / 3, 12);
    expect(bins[1]?.doneRate).toBeCloseTo(2 / 3, 12);
    const edges = reliabilityBins([{ probabilities: { a: 1 }, label: 'done' }, { probabilities: { a: 0.5 }, label: 'done' }], 4);
    expect(edges.map((bin) => bin.count)).toEqual([0, 0, 1, 1]);
    expect(edges[0]).toMatchObject({ meanProbability: null, doneRate: null });
    expect(reliabilityBins(cases)).toHaveLength(15);
    expect(() => reliabilityBins(cases, 0)).toThrow(RangeError);
  });

  it('ECE: weighted mean gap between share done and mean score per bin', () => {
    // bin [0, 0.5): 1/4 · |0 - 0.3|; bin [0.5, 1]: 3/4 · |2/3 - 2.3/3| = 3/4 · 0.1
    expect(expectedCalibrationError(cases, 2)).toBeCloseTo(0.075 + 0.075, 12);
    // With 10 bins every case sits alone: mean of |label - score|.
    expect(expectedCalibrationError(cases, 10)).toBeCloseTo((0.2 + 0.3 + 0.4 + 0.9) / 4, 12);
    expect(expectedCalibrationError([])).toBeNaN();
  });
});
