import { suggestLimits, type LimitSuggestion, type SuggestLimitsOptions } from '../core/suggest-limits.js';
import { summarizeOutcomes, type OutcomeSummary } from '../core/summarize-outcomes.js';
import { summarizeHumanWaits, type HumanWaitSummary } from './human-waits.js';
import { limitShareAlerts, type LimitShareAlert, type LimitShareBucket, type LimitShareOptions, type LimitShareSettings } from './limit-share-alerts.js';
import type { ReportedRun } from './reported-run.js';
import { reviewQueue, type ReviewItem } from './review-queue.js';

/** How the report is made: the limit-share watch and the limit suggestion. */
export interface OutcomeReportOptions extends LimitShareOptions {
  readonly limits?: SuggestLimitsOptions;
}

/** Everything the text, JSON and HTML reports show, as plain data. */
export interface OutcomeReport {
  readonly runs: number;
  /** The first and the last time a run ended, ISO 8601 UTC. */
  readonly from: string;
  readonly to: string;
  /** `summarizeOutcomes` per task type. */
  readonly byTaskType: Readonly<Record<string, OutcomeSummary>>;
  readonly alerts: readonly LimitShareAlert[];
  readonly reviewQueue: readonly ReviewItem[];
  readonly humanWaits: Readonly<Record<string, HumanWaitSummary>>;
  /** `suggestLimits` per task type. */
  readonly suggestedLimits: Readonly<Record<string, LimitSuggestion>>;
  readonly limitShare: { readonly settings: LimitShareSettings; readonly series: Readonly<Record<string, readonly LimitShareBucket[]>> };
}

/**
 * The report on recorded runs: how they ended per task type, the share of
 * limit stops over time with its alerts, the review queue, the time people
 * took to answer, and the limits the successful runs suggest. Throws a
 * `RangeError` for a bad option.
 *
 * @example
 * const read = parseOutcomeRecords(text, 'outcomes.jsonl');
 * if (read.ok) buildOutcomeReport(read.runs).alerts; // [] when no share of limit stops rose
 */
export function buildOutcomeReport(runs: readonly ReportedRun[], options: OutcomeReportOptions = {}): OutcomeReport {
  const { limits, ...watch } = options;
  const share = limitShareAlerts(runs, watch);
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const run of runs) {
    if (run.at < first) first = run.at;
    if (run.at > last) last = run.at;
  }
  return {
    runs: runs.length,
    from: runs.length === 0 ? '' : new Date(first).toISOString(),
    to: runs.length === 0 ? '' : new Date(last).toISOString(),
    byTaskType: summarizeOutcomes(runs),
    alerts: share.alerts,
    reviewQueue: reviewQueue(runs),
    humanWaits: summarizeHumanWaits(runs),
    suggestedLimits: suggestLimits(runs, limits),
    limitShare: { settings: share.settings, series: share.series },
  };
}
