import { describeValue } from '../../core/describe-value.js';
import type { StopDecision } from '../../core/policy/stop-decision.js';
import type { StopState } from '../../core/policy/stop-state.js';
import { toLangGraphRoute, type DecisionRoute } from './to-langgraph-route.js';

/** The fields of the graph state {@link routeDecision} reads. */
export interface RouteDecisionInput {
  readonly stopState?: StopState | null | undefined;
  readonly stopDecision?: StopDecision | null | undefined;
}

/**
 * The next node after a decision: `toLangGraphRoute(state.stopDecision)`,
 * for `addConditionalEdges` with `DECISION_ROUTES`. Throws a `TypeError`
 * when there is no decision yet, or when the decision is not the one for the
 * step in `stopState` (a node updated one channel and not the other), so a
 * stale decision never routes a run.
 *
 * @example
 * graph.addConditionalEdges('stop', routeDecision, DECISION_ROUTES);
 */
export function routeDecision(state: RouteDecisionInput): DecisionRoute {
  const decision = state.stopDecision;
  if (decision === null || decision === undefined) {
    throw new TypeError('no stop decision in the graph state: the node before this edge must return decideStop(policy, state, event)');
  }
  const step = state.stopState?.step;
  if (typeof decision.values !== 'object' || decision.values === null || decision.values.step !== step) {
    throw new TypeError(`the stop decision is for step ${describeValue(decision.values?.step)}, the stop state is at step ${describeValue(step)}: write both from one decideStop`);
  }
  return toLangGraphRoute(decision);
}
