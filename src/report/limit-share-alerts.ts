import { countNoun } from '../core/count-noun.js';
import type { BudgetLimitKind } from '../core/budget.js';
import { DEFAULT_TASK_TYPE } from '../core/evaluated-run.js';
import { predictiveBand } from './beta-binomial-band.js';
import type { ReportedRun } from './reported-run.js';

/** The widths a time bucket can have (UTC; weeks start on Monday). */
export const BUCKET_WIDTHS = ['hour', 'day', 'week'] as const;

/** One of {@link BUCKET_WIDTHS}. */
export type BucketWidth = (typeof BUCKET_WIDTHS)[number];

/** How the share of limit stops is watched. */
export interface LimitShareOptions {
  /** The bucket width, or `'auto'` (default): the narrowest that gives at most 120 buckets. */
  readonly bucket?: BucketWidth | 'auto';
  /** How many buckets before a bucket make its baseline (default 7). */
  readonly window?: number;
  /** The tail probability below which a bucket alerts (default 0.01). */
  readonly alpha?: number;
  /** The fewest runs a baseline needs before its bucket is tested (default 20). */
  readonly minBaselineRuns?: number;
}

/** The settings a report was made with, every default filled in. */
export interface LimitShareSettings {
  readonly bucket: BucketWidth;
  readonly window: number;
  readonly alpha: number;
  readonly minBaselineRuns: number;
}

/** One time bucket of one task type. */
export interface LimitShareBucket {
  /** The bucket's start and end (exclusive), ISO 8601 UTC. */
  readonly start: string;
  readonly end: string;
  readonly runs: number;
  readonly limitStops: number;
  /** limitStops / runs; `null` for a bucket without runs. */
  readonly share: number | null;
  /** The previous `window` buckets; `null` when they hold fewer than `minBaselineRuns` runs or the bucket has none. */
  readonly baseline: {
    readonly runs: number;
    readonly limitStops: number;
    readonly share: number;
    /** The band of usual shares for this bucket's number of runs. */
    readonly low: number;
    readonly high: number;
    /** How likely this many limit stops or more would be if the share had not changed. */
    readonly pValue: number;
  } | null;
  readonly alert: boolean;
}

/** A bucket whose share of limit stops rose above its usual band. */
export interface LimitShareAlert {
  readonly taskType: string;
  readonly start: string;
  readonly end: string;
  readonly runs: number;
  readonly limitStops: number;
  readonly share: number;
  readonly baselineRuns: number;
  readonly baselineLimitStops: number;
  readonly baselineShare: number;
  /** The highest share the baseline calls usual for this many runs. */
  readonly bandHigh: number;
  readonly pValue: number;
  /** The limit stops of the bucket by limit kind. */
  readonly byLimit: Readonly<Partial<Record<BudgetLimitKind, number>>>;
}

/** The share of limit stops over time, per task type, and the buckets that alert. */
export interface LimitShareReport {
  readonly settings: LimitShareSettings;
  readonly series: Readonly<Record<string, readonly LimitShareBucket[]>>;
  readonly alerts: readonly LimitShareAlert[];
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const WIDTH_MS: Readonly<Record<BucketWidth, number>> = { hour: HOUR_MS, day: DAY_MS, week: 7 * DAY_MS };
/** 1970-01-05, the first Monday after the epoch: weeks are counted from it. */
const WEEK_ORIGIN_MS = 4 * DAY_MS;
const AUTO_MAX_BUCKETS = 120;
const MAX_BUCKETS = 20_000;

/**
 * The share of limit stops per time bucket and task type, and an alert for
 * each bucket whose count of limit stops is above its usual band: with X the
 * limit stops among the bucket's n runs and k0 of n0 in the previous `window`
 * buckets, the bucket alerts when P(X ≥ observed) ≤ `alpha` under the
 * beta-binomial predictive BetaBinomial(n, k0 + 1, n0 − k0 + 1) (see
 * {@link predictiveBand}). Buckets whose baseline holds fewer than
 * `minBaselineRuns` runs are not tested. Throws a `RangeError` for a bad
 * option or when the runs span more than 20,000 buckets.
 *
 * @example
 * limitShareAlerts(runs, { bucket: 'day' }).alerts[0]; // { taskType: 'bugfix', start: '2026-03-09T00:00:00.000Z', share: 0.31, bandHigh: 0.16, ... }
 */
export function limitShareAlerts(runs: readonly Pick<ReportedRun, 'at' | 'taskType' | 'outcome'>[], options: LimitShareOptions = {}): LimitShareReport {
  const window = options.window ?? 7;
  const alpha = options.alpha ?? 0.01;
  const minBaselineRuns = options.minBaselineRuns ?? 20;
  if (!Number.isInteger(window) || window < 1 || window > 1000) throw new RangeError(`window must be an integer from 1 to 1000, got ${String(window)}`);
  if (!(alpha > 0 && alpha < 0.5)) throw new RangeError(`alpha must be a number in (0, 0.5), got ${String(alpha)}`);
  if (!Number.isInteger(minBaselineRuns) || minBaselineRuns < 1) throw new RangeError(`minBaselineRuns must be a positive integer, got ${String(minBaselineRuns)}`);
  const requested = options.bucket ?? 'auto';
  if (requested !== 'auto' && !(BUCKET_WIDTHS as readonly string[]).includes(requested)) {
    throw new RangeError(`bucket must be one of auto, ${BUCKET_WIDTHS.join(', ')}, got ${String(requested)}`);
  }
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const run of runs) {
    if (run.at < first) first = run.at;
    if (run.at > last) last = run.at;
  }
  const bucket = requested === 'auto' ? autoWidth(first, last) : requested;
  const settings: LimitShareSettings = { bucket, window, alpha, minBaselineRuns };
  if (runs.length === 0) return { settings, series: {}, alerts: [] };
  const origin = bucketStart(first, bucket);
  const count = Math.floor((bucketStart(last, bucket) - origin) / WIDTH_MS[bucket]) + 1;
  if (count > MAX_BUCKETS) {
    throw new RangeError(`the runs span ${count} ${bucket}s, more than ${MAX_BUCKETS} buckets; choose a wider bucket`);
  }

  const counts = new Map<string, { runs: Uint32Array; limits: Uint32Array; byLimit: Map<number, Partial<Record<BudgetLimitKind, number>>> }>();
  for (const run of runs) {
    const taskType = run.taskType ?? DEFAULT_TASK_TYPE;
    let entry = counts.get(taskType);
    if (entry === undefined) {
      entry = { runs: new Uint32Array(count), limits: new Uint32Array(count), byLimit: new Map() };
      counts.set(taskType, entry);
    }
    const index = Math.floor((run.at - origin) / WIDTH_MS[bucket]);
    entry.runs[index] = (entry.runs[index] as number) + 1;
    if (run.outcome.exit === 'limit') {
      entry.limits[index] = (entry.limits[index] as number) + 1;
      const kinds = entry.byLimit.get(index) ?? {};
      const kind = run.outcome.limit ?? 'steps';
      kinds[kind] = (kinds[kind] ?? 0) + 1;
      entry.byLimit.set(index, kinds);
    }
  }

  const starts = Array.from({ length: count + 1 }, (_, i) => new Date(origin + i * WIDTH_MS[bucket]).toISOString());
  const series: Record<string, LimitShareBucket[]> = {};
  const alerts: LimitShareAlert[] = [];
  for (const [taskType, entry] of counts) {
    const buckets: LimitShareBucket[] = [];
    let baselineRuns = 0;
    let baselineLimits = 0;
    for (let i = 0; i < count; i += 1) {
      if (i - window - 1 >= 0) {
        baselineRuns -= entry.runs[i - window - 1] as number;
        baselineLimits -= entry.limits[i - window - 1] as number;
      }
      if (i - 1 >= 0) {
        baselineRuns += entry.runs[i - 1] as number;
        baselineLimits += entry.limits[i - 1] as number;
      }
      const n = entry.runs[i] as number;
      const k = entry.limits[i] as number;
      const start = starts[i] as string;
      const end = starts[i + 1] as string;
      let baseline: LimitShareBucket['baseline'] = null;
      if (n > 0 && baselineRuns >= minBaselineRuns) {
        const band = predictiveBand(baselineLimits, baselineRuns, k, n, alpha);
        baseline = { runs: baselineRuns, limitStops: baselineLimits, share: baselineLimits / baselineRuns, low: band.low / n, high: band.high / n, pValue: band.pValue };
      }
      const alert = baseline !== null && baseline.pValue <= alpha;
      buckets.push({ start, end, runs: n, limitStops: k, share: n === 0 ? null : k / n, baseline, alert });
      if (alert && baseline !== null) {
        alerts.push({
          taskType,
          start,
          end,
          runs: n,
          limitStops: k,
          share: k / n,
          baselineRuns,
          baselineLimitStops: baselineLimits,
          baselineShare: baseline.share,
          bandHigh: baseline.high,
          pValue: baseline.pValue,
          byLimit: entry.byLimit.get(i) ?? {},
        });
      }
    }
    series[taskType] = buckets;
  }
  alerts.sort((x, y) => (x.start < y.start ? -1 : x.start > y.start ? 1 : 0));
  return { settings, series, alerts };
}

/** The start of the bucket that holds `ms`, in milliseconds since the epoch. */
export function bucketStart(ms: number, width: BucketWidth): number {
  const size = WIDTH_MS[width];
  const origin = width === 'week' ? WEEK_ORIGIN_MS : 0;
  return Math.floor((ms - origin) / size) * size + origin;
}

function autoWidth(first: number, last: number): BucketWidth {
  if (!Number.isFinite(first)) return 'day';
  for (const width of BUCKET_WIDTHS) {
    if ((bucketStart(last, width) - bucketStart(first, width)) / WIDTH_MS[width] + 1 <= AUTO_MAX_BUCKETS) return width;
  }
  return 'week';
}

/**
 * One sentence on what the watch found: the alerts, no alert in the buckets it
 * tested (and how many it could not test), or too few runs to test any bucket,
 * so a report never claims a check it did not make.
 */
export function describeLimitShare(report: Pick<LimitShareReport, 'settings' | 'series' | 'alerts'>): string {
  const { bucket, window, minBaselineRuns } = report.settings;
  const buckets = Object.values(report.series).flat().filter((entry) => entry.runs > 0);
  const tested = buckets.filter((entry) => entry.baseline !== null).length;
  if (report.alerts.length > 0) return `${countNoun(report.alerts.length, 'alert')}: the share of limit stops rose above its usual band:`;
  if (tested === 0) {
    return `No limit-share check: no ${bucket} had the ${minBaselineRuns} runs in the ${window} ${bucket}s before it that a baseline needs, so none was tested.`;
  }
  const untested = buckets.length - tested;
  return `No alert: the share of limit stops stayed within its usual band in each of the ${countNoun(tested, bucket)} tested${untested === 0 ? '' : ` (${untested} with fewer than ${minBaselineRuns} runs before ${untested === 1 ? 'it' : 'them'} not tested)`}.`;
}

