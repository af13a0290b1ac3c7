import { describeValue } from '../../core/describe-value.js';
import type { StopEngineState } from './stop-engine-annotation.js';
import { routeOf, type StopRoute } from './route-stop.js';

/**
 * The next node after a decision: `routeOf(state.stopDecision)`,
 * for `addConditionalEdges` with `STOP_ROUTES`. Throws a `TypeError`
 * when there is no decision yet, or when the decision is not the one for the
 * step in `stopState` (a node updated one channel and not the other), so a
 * stale decision never routes a run.
 *
 * @example
 * graph.addConditionalEdges('stop', routeDecision, STOP_ROUTES);
 */
export function routeDecision(state: Partial<StopEngineState>): StopRoute {
  const decision = state.stopDecision;
  if (decision === null || decision === undefined) {
    throw new TypeError('no stop decision in the graph state: the node before this edge must return decideStop(policy, state, event)');
  }
  const step = state.stopState?.step;
  if (typeof decision.values !== 'object' || decision.values === null || decision.values.step !== step) {
    throw new TypeError(`the stop decision is for step ${describeValue(decision.values?.step)}, the stop state is at step ${describeValue(step)}: write both from one decideStop`);
  }
  return routeOf(decision);
}
