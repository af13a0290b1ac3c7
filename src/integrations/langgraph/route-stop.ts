import { describeValue } from '../../core/describe-value.js';
import { decide, initialStopState } from '../../core/policy/decide.js';
import { parseStopPolicy } from '../../core/policy/parse-stop-policy.js';
import type { StopDecision } from '../../core/policy/stop-decision.js';
import { STOP_POLICY_VERSION, type StopPolicyDocument } from '../../core/policy/stop-policy-document.js';

/** The node a graph goes to after a turn: back to `turn`, or the node named after the exit it stopped with. */
export type StopRoute = 'turn' | 'limit' | 'success' | 'give_up' | 'human' | 'failed';

/** Every destination of {@link routeStop} and `routeDecision`, for `addConditionalEdges`. */
export const STOP_ROUTES: readonly StopRoute[] = Object.freeze(['turn', 'limit', 'success', 'give_up', 'human', 'failed']);

/** The state fields {@link routeStop} reads. */
export interface RouteStopState {
  /** Turns completed so far. */
  readonly steps: number;
  /** The hard cap on turns. */
  readonly maxSteps: number;
  /** What the model said on the turn; absent (`undefined` or `null`) when it said nothing, which reads as `continue`. */
  readonly signal?: 'continue' | 'done' | 'give_up' | 'need_help' | null | undefined;
  /** True when code checked the success criterion (tests pass, the report is valid...); absent reads as `false`. */
  readonly verified?: boolean | null | undefined;
  /**
   * The value of `steps` on the turn that set `signal` and `verified`. When it
   * is set and is not the current `steps`, both are from an earlier turn and
   * are read as no signal; when it is absent, they are read as they are.
   */
  readonly signalStep?: number | null | undefined;
}

const policies = new Map<number, StopPolicyDocument>();

/** `routeStop`'s rules for a step cap: stop at the cap, on a verified `done`, on `give_up` and on `need_help`. */
function routeStopPolicy(maxSteps: number): StopPolicyDocument {
  let policy = policies.get(maxSteps);
  if (policy === undefined) {
    policy = parseStopPolicy({
      version: STOP_POLICY_VERSION,
      name: 'route-stop',
      rules: [
        { id: 'max_steps', when: { limit: { of: 'steps', max: maxSteps } }, then: { kind: 'stop', exit: 'limit', reason: 'max_steps' } },
        { id: 'verified_done', when: { all: [{ signal: 'done' }, { verification: 'passed' }] }, then: { kind: 'stop', exit: 'success', reason: 'verified_done' } },
        { id: 'gave_up', when: { signal: 'give_up' }, then: { kind: 'stop', exit: 'gave_up', reason: 'agent_gave_up' } },
        { id: 'need_help', when: { signal: 'need_help' }, then: { kind: 'stop', exit: 'need_help', reason: 'agent_needs_help' } },
      ],
    });
    if (policies.size >= 64) policies.clear();
    policies.set(maxSteps, policy);
  }
  return policy;
}

/**
 * The next node after a turn: `limit` when `steps >= maxSteps` (checked
 * first), `success` on a verified `done`, `turn` on an unverified `done`, on
 * `continue` and on no signal, `give_up` on `give_up` and `human` on
 * `need_help`. A signal stamped with an earlier step (`signalStep` below
 * `steps`) is no signal. A malformed state throws a `TypeError` naming the
 * field, so the run fails instead of ending as a success. The turn is decided
 * by the stop engine with these four rules; to decide with a policy of your
 * own and keep the engine's state in a checkpoint, see `decideStop`.
 *
 * @example
 * graph.addConditionalEdges('turn', routeStop, STOP_ROUTES);
 */
export function routeStop(state: RouteStopState): StopRoute {
  assertRouteStopState(state);
  const policy = routeStopPolicy(state.maxSteps);
  const current = state.signalStep === undefined || state.signalStep === null || state.signalStep === state.steps;
  const signal = current ? (state.signal ?? 'continue') : 'continue';
  const engine = { ...initialStopState(policy), step: Math.max(0, state.steps - 1) };
  const { decision } = decide(policy, engine, {
    step: state.steps,
    ...(signal === 'continue' ? {} : { signal: { kind: signal, note: '' } }),
    ...(current && state.verified === true ? { verification: { ok: true } } : {}),
  });
  return routeOf(decision);
}

/** The route of a decision: `continue` and `retry` back to `turn`; a stop to the node named after its exit. */
export function routeOf(decision: StopDecision): StopRoute {
  if (typeof decision !== 'object' || decision === null) throw new TypeError(`a stop decision must be an object, got ${describeValue(decision)}`);
  if (decision.kind === 'continue' || decision.kind === 'retry') return 'turn';
  if (decision.kind !== 'stop') throw new TypeError(`stop decision kind must be continue, retry or stop, got ${describeValue((decision as { kind: unknown }).kind)}`);
  switch (decision.exit) {
    case 'gave_up':
      return 'give_up';
    case 'need_help':
      return 'human';
    case 'success':
    case 'limit':
    case 'failed':
      return decision.exit;
    default:
      throw new TypeError(`stop decision exit must be one of success, limit, gave_up, need_help, failed, got ${describeValue((decision as { exit: unknown }).exit)}`);
  }
}

function assertRouteStopState(state: RouteStopState): void {
  if (typeof state !== 'object' || state === null) throw new TypeError(`the stop state must be an object, got ${describeValue(state)}`);
  if (!Number.isInteger(state.steps) || state.steps < 0) throw new TypeError(`state.steps must be a non-negative integer, got ${describeValue(state.steps)}`);
  if (!Number.isInteger(state.maxSteps) || state.maxSteps < 1) throw new TypeError(`state.maxSteps must be a positive integer, got ${describeValue(state.maxSteps)}`);
  const { signal, verified, signalStep } = state;
  if (signal !== undefined && signal !== null && !['continue', 'done', 'give_up', 'need_help'].includes(signal)) {
    throw new TypeError(`state.signal must be one of continue, done, give_up, need_help (or absent), got ${describeValue(signal)}`);
  }
  if (verified !== undefined && verified !== null && typeof verified !== 'boolean') throw new TypeError(`state.verified must be a boolean, got ${describeValue(verified)}`);
  if (signalStep !== undefined && signalStep !== null && (!Number.isInteger(signalStep) || signalStep < 0 || signalStep > state.steps)) {
    throw new TypeError(`state.signalStep must be an integer from 0 to state.steps (${state.steps}), got ${describeValue(signalStep)}`);
  }
}
