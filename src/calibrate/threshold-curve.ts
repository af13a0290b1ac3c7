import type { StopPolicyDocument } from '../core/policy/stop-policy-document.js';
import type { ScoredCase } from './labelled-case.js';
import type { RiskKind } from './learn-then-test.js';
import { verdictCounts, type PolicyThresholds, type VerdictCounts } from './policy-thresholds.js';

/** What a policy does on a set of cases at one done threshold. */
export interface ThresholdCurvePoint {
  readonly threshold: number;
  /** The false-done risk of the kind asked for: over all cases (joint) or over the stopped ones (conditional); null with no case to divide by. */
  readonly falseDoneRate: number | null;
  /** Share of cases not handed to a person. */
  readonly coverage: number | null;
  /** Share of cases stopped as done. */
  readonly doneShare: number | null;
}

/**
 * The false-done rate, coverage and done share at each threshold of `grid`
 * (ascending): the cases decided by `policy` with its done threshold there and
 * its low bound at `midBandLow` (or at the threshold, when that is lower).
 */
export function thresholdCurve(cases: readonly ScoredCase[], policy: StopPolicyDocument, grid: readonly number[], risk: RiskKind, midBandLow: number): ThresholdCurvePoint[] {
  return curveOf(verdictCounts(policy, cases), cases.length, grid, risk, midBandLow);
}

/** {@link thresholdCurve} over the counts of `total` cases. */
export function curveOf(countAt: (thresholds: PolicyThresholds) => VerdictCounts, total: number, grid: readonly number[], risk: RiskKind, midBandLow: number): ThresholdCurvePoint[] {
  return [...new Set(grid)]
    .sort((a, b) => a - b)
    .map((threshold) => {
      const counts = countAt({ done: threshold, low: Math.min(midBandLow, threshold) });
      const stopped = counts.done.done + counts.done.notDone;
      const falseDones = counts.done.notDone;
      const handedOff = counts.handoff.done + counts.handoff.notDone;
      const base = risk === 'joint' ? total : stopped;
      return { threshold, falseDoneRate: base === 0 ? null : falseDones / base, coverage: total === 0 ? null : (total - handedOff) / total, doneShare: total === 0 ? null : stopped / total };
    });
}
