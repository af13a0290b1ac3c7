import { minCriterionProbability } from '../core/criterion-probabilities.js';
import type { ProbabilityCase } from './calibration-metrics.js';
import { logit, toCalibrationFit, type CalibrationFit } from './calibration-map.js';

/** A fitted temperature map. */
export type TemperatureMap = { readonly kind: 'temperature'; readonly temperature: number };

/** The temperatures a fit may return: beyond them the map is, for practical purposes, a step or a constant. */
export const TEMPERATURE_RANGE = Object.freeze({ min: 0.01, max: 100 });

/**
 * Fits temperature scaling, q = σ(logit(p) / T), by minimising the negative
 * log-likelihood of the labels over T in [0.01, 100] (the likelihood is convex
 * in 1/T; golden-section search on log T). T > 1 softens an over-confident
 * model, T < 1 sharpens an under-confident one.
 *
 * @example
 * fitTemperature(cases).map.temperature; // e.g. 1.8 for an over-confident model
 */
export function fitTemperature(cases: readonly ProbabilityCase[]): CalibrationFit<TemperatureMap> {
  if (cases.length === 0) throw new RangeError('fitTemperature needs at least one case');
  const scores = cases.map((labelled) => logit(minCriterionProbability(labelled.probabilities)));
  const labels = cases.map((labelled) => (labelled.label === 'done' ? 1 : 0));
  const negativeLogLikelihood = (logTemperature: number): number => {
    const inverse = Math.exp(-logTemperature);
    let sum = 0;
    for (let index = 0; index < scores.length; index++) {
      const z = (scores[index] as number) * inverse;
      // −log σ(z) = log(1 + e^{−z}); −log(1 − σ(z)) = log(1 + e^{z}).
      const signed = labels[index] === 1 ? -z : z;
      sum += signed > 0 ? signed + Math.log1p(Math.exp(-signed)) : Math.log1p(Math.exp(signed));
    }
    return sum;
  };
  let low = Math.log(TEMPERATURE_RANGE.min);
  let high = Math.log(TEMPERATURE_RANGE.max);
  const ratio = (Math.sqrt(5) - 1) / 2;
  let left = high - ratio * (high - low);
  let right = low + ratio * (high - low);
  let leftValue = negativeLogLikelihood(left);
  let rightValue = negativeLogLikelihood(right);
  for (let iteration = 0; iteration < 120 && high - low > 1e-10; iteration++) {
    if (leftValue <= rightValue) {
      high = right;
      right = left;
      rightValue = leftValue;
      left = high - ratio * (high - low);
      leftValue = negativeLogLikelihood(left);
    } else {
      low = left;
      left = right;
      leftValue = rightValue;
      right = low + ratio * (high - low);
      rightValue = negativeLogLikelihood(right);
    }
  }
  return toCalibrationFit({ kind: 'temperature', temperature: Math.exp((low + high) / 2) });
}
