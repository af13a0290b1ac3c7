import { describeValue } from '../../core/describe-value.js';

/** What the working model said at the end of its turn. */
export type StopSignal = 'continue' | 'done' | 'give_up' | 'need_help';

/** The node a graph goes to after a turn. */
export type StopRoute = 'turn' | 'limit' | 'success' | 'give_up' | 'human';

/** The state fields {@link routeStop} reads. */
export interface StopState {
  /** Turns completed so far. */
  readonly steps: number;
  /** The hard cap on turns. */
  readonly maxSteps: number;
  /** What the model said on the turn; absent (`undefined` or `null`) when it said nothing, which reads as `continue`. */
  readonly signal?: StopSignal | null | undefined;
  /** True when code checked the success criterion (tests pass, the report is valid...); absent reads as `false`. */
  readonly verified?: boolean | null | undefined;
  /**
   * The value of `steps` on the turn that set `signal` and `verified`. When it
   * is set and is not the current `steps`, both are from an earlier turn and
   * are read as no signal; when it is absent, they are read as they are.
   */
  readonly signalStep?: number | null | undefined;
}

/** Every destination of {@link routeStop}, for `addConditionalEdges`. */
export const STOP_ROUTES: readonly StopRoute[] = Object.freeze(['turn', 'limit', 'success', 'give_up', 'human']);

const SIGNALS: ReadonlySet<string> = new Set<StopSignal>(['continue', 'done', 'give_up', 'need_help']);

/**
 * The next node after a turn: `limit` when `steps >= maxSteps` (checked
 * first), `success` on a verified `done`, `turn` on an unverified `done`, on
 * `continue` and on no signal, `give_up` on `give_up` and `human` on
 * `need_help`. A signal stamped with an earlier step (`signalStep` below
 * `steps`) is no signal. A malformed state throws a `TypeError` naming the
 * field, so the run fails instead of ending as a success.
 *
 * @example
 * graph.addConditionalEdges('turn', routeStop, STOP_ROUTES);
 */
export function routeStop(state: StopState): StopRoute {
  assertStopState(state);
  if (state.steps >= state.maxSteps) return 'limit';
  const current = state.signalStep === undefined || state.signalStep === null || state.signalStep === state.steps;
  const signal = current ? (state.signal ?? 'continue') : 'continue';
  switch (signal) {
    case 'done':
      return state.verified === true ? 'success' : 'turn';
    case 'continue':
      return 'turn';
    case 'give_up':
      return 'give_up';
    case 'need_help':
      return 'human';
  }
}

function assertStopState(state: StopState): void {
  if (typeof state !== 'object' || state === null) {
    throw new TypeError(`the stop state must be an object, got ${describeValue(state)}`);
  }
  if (!Number.isInteger(state.steps) || state.steps < 0) {
    throw new TypeError(`state.steps must be a non-negative integer, got ${describeValue(state.steps)}`);
  }
  if (!Number.isInteger(state.maxSteps) || state.maxSteps < 1) {
    throw new TypeError(`state.maxSteps must be a positive integer, got ${describeValue(state.maxSteps)}`);
  }
  const { signal, verified, signalStep } = state;
  if (signal !== undefined && signal !== null && (typeof signal !== 'string' || !SIGNALS.has(signal))) {
    throw new TypeError(`state.signal must be one of continue, done, give_up, need_help (or absent), got ${describeValue(signal)}`);
  }
  if (verified !== undefined && verified !== null && typeof verified !== 'boolean') {
    throw new TypeError(`state.verified must be a boolean, got ${describeValue(verified)}`);
  }
  if (signalStep !== undefined && signalStep !== null && (!Number.isInteger(signalStep) || signalStep < 0 || signalStep > state.steps)) {
    throw new TypeError(`state.signalStep must be an integer from 0 to state.steps (${state.steps}), got ${describeValue(signalStep)}`);
  }
}
