import { resolveStallOptions, type StallOptionsInput } from './stall-options.js';

/** A run of equal digests: the digest, how many steps in a row, and the index of the first. */
export interface StallStreak {
  readonly key: string;
  readonly count: number;
  readonly since: number;
}

/** A failing check the detector remembers: its call, its last result, and how many runs gave that result. */
export interface StallCheck {
  readonly call: string;
  readonly result: string;
  readonly runs: number;
  readonly since: number;
  readonly last: number;
}

/** The version of {@link StallState}; a state of another version is not read. */
export const STALL_STATE_VERSION = 2;

/**
 * What the detector remembers between steps: plain JSON made of digests and
 * counters, never outputs, so its size does not grow with the run or with the
 * size of the outputs. Save it between processes and pass it back unchanged.
 * A user message (a step with `role: 'user'`) starts it afresh, but for `steps`.
 */
export interface StallState {
  readonly version: 2;
  readonly steps: number;
  readonly call: (StallStreak & { readonly failing: number }) | null;
  readonly result: StallStreak | null;
  readonly error: StallStreak | null;
  readonly infrastructure: StallStreak | null;
  readonly monologue: { readonly count: number; readonly since: number };
  readonly recent: readonly string[];
  readonly periods: readonly number[];
  readonly seen: readonly string[];
  readonly revisits: { readonly count: number; readonly since: number };
  /** The (call, result) pairs of the last steps, newest last ('' for a step that does not count), for `repeatedPair`. */
  readonly pairs: readonly string[];
  /** The index of the last step whose (call, result) pair was new in the turn (-1: none yet). */
  readonly lastNew: number;
  readonly checks: readonly StallCheck[];
  readonly tests: StallStreak | null;
}

/** The state before the first step. */
export function initialStallState(options?: StallOptionsInput): StallState {
  const resolved = resolveStallOptions(options);
  const periods = resolved.cycle === false ? 0 : resolved.cycle.maxPeriod - 1;
  return {
    version: STALL_STATE_VERSION,
    steps: 0,
    call: null,
    result: null,
    error: null,
    infrastructure: null,
    monologue: { count: 0, since: 0 },
    recent: [],
    periods: Array.from({ length: periods }, () => 0),
    seen: [],
    revisits: { count: 0, since: 0 },
    pairs: [],
    lastNew: -1,
    checks: [],
    tests: null,
  };
}

/**
 * True for a value shaped like a saved {@link StallState} of this version: its streaks, counters and digest lists,
 * each of the type the detector writes (a state another program wrote, or an earlier version's, is not one).
 */
export function isStallState(value: unknown): value is StallState {
  if (!isRecord(value) || value.version !== STALL_STATE_VERSION || !isCount(value.steps)) return false;
  const streak = (item: unknown): boolean => item === null || (isRecord(item) && typeof item.key === 'string' && isCount(item.count) && isCount(item.since));
  const strings = (item: unknown): boolean => Array.isArray(item) && item.every((entry) => typeof entry === 'string');
  const counter = (item: unknown): boolean => isRecord(item) && isCount(item.count) && isCount(item.since);
  return (
    streak(value.call) &&
    (value.call === null || isCount((value.call as Record<string, unknown>).failing)) &&
    streak(value.result) &&
    streak(value.error) &&
    streak(value.infrastructure) &&
    streak(value.tests) &&
    counter(value.monologue) &&
    counter(value.revisits) &&
    strings(value.recent) &&
    strings(value.seen) &&
    strings(value.pairs) &&
    Number.isInteger(value.lastNew) &&
    (value.lastNew as number) >= -1 &&
    Array.isArray(value.periods) &&
    value.periods.every(isCount) &&
    Array.isArray(value.checks) &&
    value.checks.every(
      (check) => isRecord(check) && typeof check.call === 'string' && typeof check.result === 'string' && [check.runs, check.since, check.last].every(isCount),
    )
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): boolean {
  return Number.isInteger(value) && (value as number) >= 0;
}
