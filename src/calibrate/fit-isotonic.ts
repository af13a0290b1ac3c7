import { minCriterionProbability } from '../core/criterion-probabilities.js';
import type { ProbabilityCase } from './calibration-metrics.js';
import { toCalibrationFit, type CalibrationFit } from './calibration-map.js';

/** A fitted isotonic map: breakpoints, linear between them and flat beyond the ends. */
export type IsotonicMap = { readonly kind: 'isotonic'; readonly x: readonly number[]; readonly y: readonly number[] };

/**
 * Pool-adjacent-violators: the non-decreasing sequence closest to `values` in
 * weighted least squares. Returns one fitted value per input value.
 *
 * @example
 * poolAdjacentViolators([1, 3, 2, 4, 3, 5]); // [1, 2.5, 2.5, 3.5, 3.5, 5]
 */
export function poolAdjacentViolators(values: readonly number[], weights?: readonly number[]): number[] {
  if (weights !== undefined && weights.length !== values.length) {
    throw new RangeError('poolAdjacentViolators needs one weight per value');
  }
  const blockValue: number[] = [];
  const blockWeight: number[] = [];
  const blockSize: number[] = [];
  values.forEach((value, index) => {
    let mean = value;
    let weight = weights?.[index] ?? 1;
    let size = 1;
    while (blockValue.length > 0 && (blockValue[blockValue.length - 1] as number) > mean) {
      const previousWeight = blockWeight.pop() as number;
      const previousMean = blockValue.pop() as number;
      size += blockSize.pop() as number;
      mean = (previousMean * previousWeight + mean * weight) / (previousWeight + weight);
      weight += previousWeight;
    }
    blockValue.push(mean);
    blockWeight.push(weight);
    blockSize.push(size);
  });
  return blockValue.flatMap((mean, block) => new Array<number>(blockSize[block] as number).fill(mean));
}

/**
 * Fits an isotonic (non-decreasing) map from score to the share labelled
 * done, by pool-adjacent-violators over the cases sorted by score (equal
 * scores pooled first). Each pooled block keeps its lowest and highest score
 * as breakpoints; the map is linear between blocks and flat beyond the ends.
 * Flexible but prone to overfit below about a thousand cases.
 *
 * @example
 * fitIsotonic(cases).apply(0.72);
 */
export function fitIsotonic(cases: readonly ProbabilityCase[]): CalibrationFit<IsotonicMap> {
  if (cases.length === 0) throw new RangeError('fitIsotonic needs at least one case');
  const points = cases
    .map((labelled) => ({ score: minCriterionProbability(labelled.probabilities), done: labelled.label === 'done' ? 1 : 0 }))
    .sort((a, b) => a.score - b.score);
  const scores: number[] = [];
  const means: number[] = [];
  const weights: number[] = [];
  for (const point of points) {
    const last = scores.length - 1;
    if (last >= 0 && scores[last] === point.score) {
      const weight = weights[last] as number;
      means[last] = ((means[last] as number) * weight + point.done) / (weight + 1);
      weights[last] = weight + 1;
    } else {
      scores.push(point.score);
      means.push(point.done);
      weights.push(1);
    }
  }
  const fitted = poolAdjacentViolators(means, weights);
  const x: number[] = [];
  const y: number[] = [];
  for (let index = 0; index < fitted.length; index++) {
    const value = fitted[index] as number;
    const startsBlock = index === 0 || fitted[index - 1] !== value;
    const endsBlock = index === fitted.length - 1 || fitted[index + 1] !== value;
    if (startsBlock || endsBlock) {
      x.push(scores[index] as number);
      y.push(value);
    }
  }
  return toCalibrationFit({ kind: 'isotonic', x, y });
}
