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

/**
 * What the detector remembers between steps: plain JSON made of digests and
 * counters, never outputs, so its size does not grow with the run or with the
 * size of the outputs. Save it between processes and pass it back unchanged.
 */
export interface StallState {
  readonly version: 1;
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
  readonly checks: readonly StallCheck[];
  readonly tests: StallStreak | null;
}

/** The state before the first step. */
export function initialStallState(options?: StallOptionsInput): StallState {
  const resolved = resolveStallOptions(options);
  const periods = resolved.cycle === false ? 0 : resolved.cycle.maxPeriod - 1;
  return {
    version: 1,
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
    checks: [],
    tests: null,
  };
}
