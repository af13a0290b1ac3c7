import { minCriterionProbability } from '../core/criterion-probabilities.js';
import type { ProbabilityCase } from './calibration-metrics.js';
import { logit, toCalibrationFit, type CalibrationFit } from './calibration-map.js';

/** A fitted Platt map. */
export type PlattMap = { readonly kind: 'platt'; readonly a: number; readonly b: number };

/**
 * Fits Platt scaling, q = 1 / (1 + exp(a·logit(p) + b)), by maximum
 * likelihood with Platt's smoothed targets ((N₊ + 1)/(N₊ + 2) for done,
 * 1/(N₋ + 2) for not done), using the Newton method with backtracking of Lin,
 * Lin and Weng (2007). The smoothed targets keep the fit finite on separable
 * data. The map is kept non-decreasing: when the data would make it
 * decreasing, the constant fit (a = 0) is returned instead.
 *
 * @example
 * const { map, apply } = fitPlatt(cases);
 * apply(0.9); // the recalibrated probability
 */
export function fitPlatt(cases: readonly ProbabilityCase[]): CalibrationFit<PlattMap> {
  if (cases.length === 0) throw new RangeError('fitPlatt needs at least one case');
  const scores = cases.map((labelled) => logit(minCriterionProbability(labelled.probabilities)));
  const positives = cases.filter((labelled) => labelled.label === 'done').length;
  const negatives = cases.length - positives;
  const high = (positives + 1) / (positives + 2);
  const low = 1 / (negatives + 2);
  const targets = cases.map((labelled) => (labelled.label === 'done' ? high : low));

  const objective = (a: number, b: number): number => {
    let sum = 0;
    for (let index = 0; index < scores.length; index++) {
      const z = (scores[index] as number) * a + b;
      const t = targets[index] as number;
      sum += z >= 0 ? t * z + Math.log1p(Math.exp(-z)) : (t - 1) * z + Math.log1p(Math.exp(z));
    }
    return sum;
  };

  let a = 0;
  let b = Math.log((negatives + 1) / (positives + 1));
  let value = objective(a, b);
  for (let iteration = 0; iteration < 200; iteration++) {
    let h11 = 1e-12;
    let h22 = 1e-12;
    let h21 = 0;
    let g1 = 0;
    let g2 = 0;
    for (let index = 0; index < scores.length; index++) {
      const f = scores[index] as number;
      const z = f * a + b;
      // p = P(done) = 1 / (1 + exp(z)), q = 1 − p.
      const p = z >= 0 ? Math.exp(-z) / (1 + Math.exp(-z)) : 1 / (1 + Math.exp(z));
      const q = 1 - p;
      const d2 = p * q;
      h11 += f * f * d2;
      h22 += d2;
      h21 += f * d2;
      const d1 = (targets[index] as number) - p;
      g1 += f * d1;
      g2 += d1;
    }
    if (Math.abs(g1) < 1e-9 && Math.abs(g2) < 1e-9) break;
    const det = h11 * h22 - h21 * h21;
    const da = -(h22 * g1 - h21 * g2) / det;
    const db = -(-h21 * g1 + h11 * g2) / det;
    const slope = g1 * da + g2 * db;
    let step = 1;
    let moved = false;
    while (step >= 1e-10) {
      const nextA = a + step * da;
      const nextB = b + step * db;
      const next = objective(nextA, nextB);
      if (next < value + 1e-4 * step * slope) {
        a = nextA;
        b = nextB;
        value = next;
        moved = true;
        break;
      }
      step /= 2;
    }
    if (!moved) break;
  }
  if (a > 0) {
    const mean = targets.reduce((sum, target) => sum + target, 0) / targets.length;
    return toCalibrationFit({ kind: 'platt', a: 0, b: Math.log((1 - mean) / mean) });
  }
  return toCalibrationFit({ kind: 'platt', a, b });
}
