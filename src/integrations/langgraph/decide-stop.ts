import { decide, initialStopState } from '../../core/policy/decide.js';
import type { StopEvent } from '../../core/policy/stop-event.js';
import type { StopPolicyDocument } from '../../core/policy/stop-policy-document.js';
import type { StopState } from '../../core/policy/stop-state.js';
import type { StopDecision } from '../../core/policy/stop-decision.js';
import type { StopEngineState } from './stop-engine-annotation.js';

/**
 * Decides one turn of a graph with a policy document: `decide(policy,
 * state.stopState, event)`, from `initialStopState(policy)` before the first
 * turn, returned as the node update `{ stopState, stopDecision }` for the
 * channels of `StopEngineAnnotation`. `event` defaults to `state.stopEvent`,
 * so a node of its own can decide what the turn before it recorded (the turn
 * is then the only part that runs again on a resume). Pure, like `decide`: a
 * node that runs again on the same state returns the same update, and the
 * event of the step already in `stopState` is a replay that counts nothing
 * twice. A missing event, or one `decide` refuses, throws a `TypeError`.
 *
 * @example
 * graph.addNode('stop', (state) => decideStop(policy, state));
 * graph.addConditionalEdges('stop', routeDecision, STOP_ROUTES);
 */
export function decideStop(
  policy: StopPolicyDocument,
  state: Partial<StopEngineState>,
  event: StopEvent | null | undefined = state.stopEvent,
): { readonly stopState: StopState; readonly stopDecision: StopDecision } {
  if (event === null || event === undefined) {
    throw new TypeError('no stop event to decide: pass the turn\'s event, or write it to the stopEvent channel in the node before');
  }
  const result = decide(policy, state.stopState ?? initialStopState(policy), event);
  return { stopState: result.state, stopDecision: result.decision };
}
