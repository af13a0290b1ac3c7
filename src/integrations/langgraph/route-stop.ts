import { describeValue } from '../../core/describe-value.js';
import type { EvaluationContext } from '../../core/policy/compile-stop-policy.js';
import { evaluateRules } from '../../core/policy/decide.js';
import { ZERO_TOTALS } from '../../core/policy/stop-state.js';
import { routeStopTemplate } from './route-stop-policy.js';
import { toLangGraphRoute } from './to-langgraph-route.js';

/** What the working model said at the end of its turn. */
export type StopSignal = 'continue' | 'done' | 'give_up' | 'need_help';

/** The node a graph goes to after a turn. */
export type StopRoute = 'turn' | 'limit' | 'success' | 'give_up' | 'human';

/** The state fields {@link routeStop} reads. */
export interface RouteStopState {
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

/**
 * The state fields {@link routeStop} reads.
 *
 * @deprecated Renamed {@link RouteStopState}: `StopState` from `stopwise` is the engine's state.
 */
export type StopState = RouteStopState;

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
 * These are the rules of `routeStopPolicy(maxSteps)`, evaluated by the stop
 * engine on the turn the state describes; the route is `toLangGraphRoute` of
 * the decision. To decide with a policy of your own and keep the engine's
 * state in a checkpoint, see `decideStop` and `routeDecision`.
 *
 * @example
 * graph.addConditionalEdges('turn', routeStop, STOP_ROUTES);
 */
export function routeStop(state: RouteStopState): StopRoute {
  assertStopState(state);
  const result = evaluateRules(routeStopTemplate(), turnContext(state), false);
  if ('pending' in result) throw new TypeError(`rule "${result.pending}" of the routeStop preset could not decide`);
  // The preset has no `failed` exit, so the route is one of STOP_ROUTES.
  return toLangGraphRoute(result.decision) as StopRoute;
}

/** The turn a state describes, as the preset's conditions read it: a stale or absent signal is none. */
function turnContext(state: RouteStopState): EvaluationContext {
  const current = state.signalStep === undefined || state.signalStep === null || state.signalStep === state.steps;
  const signal = current ? (state.signal ?? 'continue') : 'continue';
  return {
    step: state.steps,
    totals: ZERO_TOTALS,
    elapsedMs: 0,
    fingerprints: [],
    retries: 0,
    tests: undefined,
    probabilities: undefined,
    signal: signal === 'continue' ? null : { kind: signal, note: '' },
    verification: state.verified === true ? { ok: true } : undefined,
    checks: undefined,
    human: undefined,
    tree: undefined,
    params: { maxSteps: state.maxSteps, doneThreshold: 0, midBandLow: 0, stallRounds: 0 },
  };
}

function assertStopState(state: RouteStopState): void {
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
