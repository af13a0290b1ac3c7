import { minCriterionProbability, type CriterionProbabilities } from '../core/criterion-probabilities.js';
import type { CaseLabel } from './labelled-case.js';

/** What the calibration metrics and fits read from a case: its probabilities (the lowest is the score) and its label. */
export interface ProbabilityCase {
  readonly probabilities: CriterionProbabilities;
  readonly label: CaseLabel;
}

/** One bin of a reliability diagram; the means are null for an empty bin. */
export interface ReliabilityBin {
  /** Inclusive lower edge. */
  readonly lower: number;
  /** Upper edge: exclusive, except 1 for the last bin. */
  readonly upper: number;
  readonly count: number;
  /** Mean score (the lowest criterion probability) of the cases in the bin. */
  readonly meanProbability: number | null;
  /** Share of the cases in the bin labelled done. */
  readonly doneRate: number | null;
}

/**
 * Mean squared difference between each case's score (its lowest criterion
 * probability) and its label (1 done, 0 not done); 0 is perfect. NaN for no
 * cases.
 *
 * @example
 * brierScore([{ probabilities: { a: 0.8 }, label: 'done' }, { probabilities: { a: 0.3 }, label: 'not_done' }]); // 0.065
 */
export function brierScore(cases: readonly ProbabilityCase[]): number {
  if (cases.length === 0) return Number.NaN;
  let sum = 0;
  for (const labelled of cases) {
    const difference = minCriterionProbability(labelled.probabilities) - (labelled.label === 'done' ? 1 : 0);
    sum += difference * difference;
  }
  return sum / cases.length;
}

/**
 * Groups cases into `bins` equal-width bins of score and gives each bin's
 * mean score and share labelled done: the points of a reliability diagram.
 *
 * @example
 * reliabilityBins(cases, 10).map((bin) => [bin.meanProbability, bin.doneRate]);
 */
export function reliabilityBins(cases: readonly ProbabilityCase[], bins = 15): ReliabilityBin[] {
  if (!Number.isInteger(bins) || bins < 1) throw new RangeError(`bins must be a positive integer, got ${String(bins)}`);
  const counts = new Array<number>(bins).fill(0);
  const scoreSums = new Array<number>(bins).fill(0);
  const doneSums = new Array<number>(bins).fill(0);
  for (const labelled of cases) {
    const score = minCriterionProbability(labelled.probabilities);
    const bin = Math.min(bins - 1, Math.floor(score * bins));
    counts[bin] = (counts[bin] ?? 0) + 1;
    scoreSums[bin] = (scoreSums[bin] ?? 0) + score;
    doneSums[bin] = (doneSums[bin] ?? 0) + (labelled.label === 'done' ? 1 : 0);
  }
  return counts.map((count, bin) => ({
    lower: bin / bins,
    upper: (bin + 1) / bins,
    count,
    meanProbability: count === 0 ? null : (scoreSums[bin] ?? 0) / count,
    doneRate: count === 0 ? null : (doneSums[bin] ?? 0) / count,
  }));
}

/**
 * Expected calibration error: Σ over bins of (cases in bin / all cases) ×
 * |share done − mean score|, with `bins` equal-width bins (15 by default, as
 * in the literature). NaN for no cases.
 */
export function expectedCalibrationError(cases: readonly ProbabilityCase[], bins = 15): number {
  if (cases.length === 0) return Number.NaN;
  let sum = 0;
  for (const bin of reliabilityBins(cases, bins)) {
    if (bin.count === 0 || bin.meanProbability === null || bin.doneRate === null) continue;
    sum += (bin.count / cases.length) * Math.abs(bin.doneRate - bin.meanProbability);
  }
  return sum;
}
