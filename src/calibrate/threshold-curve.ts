import type { StopPolicyDocument } from '../core/policy/stop-policy-document.js';
import type { ScoredCase } from './labelled-case.js';
import { policyThresholdsOf } from './learn-then-test.js';
import { decideCase, handsOff, stopsAsDone, withThresholds } from './policy-thresholds.js';

import type { RiskKind } from './learn-then-test.js';

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
  const total = cases.length;
  const found = policyThresholdsOf(policy);
  return [...new Set(grid)]
    .sort((a, b) => a - b)
    .map((threshold) => {
      const at = withThresholds(policy, found, { done: threshold, low: Math.min(midBandLow, threshold) });
      let stopped = 0;
      let falseDones = 0;
      let handedOff = 0;
      for (const labelled of cases) {
        const decision = decideCase(at, labelled);
        if (stopsAsDone(decision)) {
          stopped++;
          if (labelled.label !== 'done') falseDones++;
        } else if (handsOff(decision)) handedOff++;
      }
      const base = risk === 'joint' ? total : stopped;
      return { threshold, falseDoneRate: base === 0 ? null : falseDones / base, coverage: total === 0 ? null : (total - handedOff) / total, doneShare: total === 0 ? null : stopped / total };
    });
}
