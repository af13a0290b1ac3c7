import type { BudgetLimits } from './budget.js';
import { countNoun } from './count-noun.js';
import { groupRunsByTaskType, type EvaluatedOutcome, type EvaluatedRun } from './evaluated-run.js';

/** How to turn successful runs into limits. */
export interface SuggestLimitsOptions {
  /** The share of successful runs the ceiling must cover before headroom, in (0, 1]; default 0.95. */
  readonly quantile?: number;
  /** The factor applied on top of the quantile, at least 1; default 1.25. */
  readonly headroom?: number;
  /**
   * The fewest successes a figure rests on; a figure with fewer is left out.
   * Default: the fewest for which the quantile is not simply the largest value
   * seen, `ceil(1 / (1 - quantile))` (20 at 0.95), and 1 at quantile 1.
   */
  readonly minRuns?: number;
}

/** The limits suggested for one task type, and how many successful runs each figure was based on. */
export interface LimitSuggestion {
  readonly limits: Pick<BudgetLimits, 'maxSteps' | 'maxWallClockMs' | 'maxCost'>;
  /** The successful runs behind each figure, also for a figure left out for having fewer than `minRuns`. */
  readonly basedOn: { readonly maxSteps: number; readonly maxWallClockMs: number; readonly maxCost: number };
  readonly successes: number;
  readonly quantile: number;
  readonly headroom: number;
  readonly minRuns: number;
}

/**
 * Proposes `maxSteps`, `maxWallClockMs` and `maxCost` per task type from the
 * runs that ended in success only: the nearest-rank quantile times the
 * headroom, steps and milliseconds rounded up. Time and cost are based on the
 * successes that reported a positive value; a figure based on fewer than
 * `minRuns` successes is left out (its `basedOn` still says how many there were).
 *
 * @example
 * suggestLimits(runs, { quantile: 0.95, headroom: 1.25 }).research?.limits; // { maxSteps: 18, maxWallClockMs: 92500, maxCost: 0.41 }
 */
export function suggestLimits(
  runs: readonly EvaluatedRun[],
  { quantile = 0.95, headroom = 1.25, minRuns }: SuggestLimitsOptions = {},
): Readonly<Record<string, LimitSuggestion>> {
  if (typeof quantile !== 'number' || !(quantile > 0 && quantile <= 1)) {
    throw new RangeError(`quantile must be a number in (0, 1], got ${String(quantile)}`);
  }
  if (typeof headroom !== 'number' || !Number.isFinite(headroom) || headroom < 1) {
    throw new RangeError(`headroom must be a finite number of at least 1, got ${String(headroom)}`);
  }
  const fewest = minRuns ?? (quantile === 1 ? 1 : Math.ceil(1 / (1 - quantile) - 1e-9));
  if (!Number.isInteger(fewest) || fewest < 1) throw new RangeError(`minRuns must be a whole number of at least 1, got ${String(minRuns)}`);
  const entries = [...groupRunsByTaskType(runs)].map(([taskType, group]) => {
    const successes = group.map((run) => run.outcome).filter((outcome) => outcome.exit === 'success');
    return [taskType, suggest(successes, quantile, headroom, fewest)] as const;
  });
  return Object.fromEntries(entries);
}

function suggest(successes: readonly EvaluatedOutcome[], quantile: number, headroom: number, minRuns: number): LimitSuggestion {
  const steps = positive(successes.map((o) => o.steps));
  const wallClock = positive(successes.map((o) => o.usage.wallClockMs));
  const cost = positive(successes.map((o) => o.usage.cost));
  const limits: { maxSteps?: number; maxWallClockMs?: number; maxCost?: number } = {};
  if (steps.length >= minRuns) limits.maxSteps = Math.ceil(nearestRank(steps, quantile) * headroom);
  if (wallClock.length >= minRuns) limits.maxWallClockMs = Math.ceil(nearestRank(wallClock, quantile) * headroom);
  if (cost.length >= minRuns) limits.maxCost = nearestRank(cost, quantile) * headroom;
  return {
    limits,
    basedOn: { maxSteps: steps.length, maxWallClockMs: wallClock.length, maxCost: cost.length },
    successes: successes.length,
    quantile,
    headroom,
    minRuns,
  };
}

/** The values above 0 (the runs were validated when they were grouped). */
function positive(values: readonly number[]): number[] {
  return values.filter((value) => value > 0);
}

/** The smallest value such that at least `quantile` of the values are at or below it. */
function nearestRank(values: readonly number[], quantile: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(quantile * sorted.length));
  return sorted[rank - 1] as number;
}

/**
 * One suggested figure with the successful runs it rests on, as the report
 * shows it: `24 (25 runs)`, `- (3 runs: too few)`, or `-` when no success
 * reported it. `none` is the mark for a missing figure.
 */
export function describeLimitFigure(
  suggestion: LimitSuggestion,
  key: keyof LimitSuggestion['basedOn'],
  format: (value: number) => string,
  none = '-',
): string {
  const value = suggestion.limits[key];
  const runs = countNoun(suggestion.basedOn[key], 'run');
  if (value !== undefined) return `${format(value)} (${runs})`;
  return suggestion.basedOn[key] === 0 ? none : `${none} (${runs}: too few)`;
}
