import { outcomeAction, type CaseOutcome } from './case-outcome.js';
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
 * (ascending), with the mid-band low bound held at `midBandLow` (or at the
 * threshold, when that is lower).
 */
export function thresholdCurve(
  outcomes: readonly CaseOutcome[],
  grid: readonly number[],
  risk: RiskKind,
  midBandLow: number,
): ThresholdCurvePoint[] {
  const total = outcomes.length;
  return [...new Set(grid)]
    .sort((a, b) => a - b)
    .map((threshold) => {
      let stopped = 0;
      let falseDones = 0;
      let handedOff = 0;
      for (const outcome of outcomes) {
        const action = outcomeAction(outcome, threshold, Math.min(midBandLow, threshold));
        if (action === 'stop_done') {
          stopped++;
          if (!outcome.done) falseDones++;
        } else if (action === 'handoff_human') {
          handedOff++;
        }
      }
      const base = risk === 'joint' ? total : stopped;
      return {
        threshold,
        falseDoneRate: base === 0 ? null : falseDones / base,
        coverage: total === 0 ? null : (total - handedOff) / total,
        doneShare: total === 0 ? null : stopped / total,
      };
    });
}
