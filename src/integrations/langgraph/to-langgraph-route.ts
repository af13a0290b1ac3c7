import type { StopDecision } from '../../core/policy/stop-decision.js';
import { describeValue } from '../../core/describe-value.js';
import type { StopRoute } from './route-stop.js';

/** The node a graph goes to after a decision: {@link StopRoute}'s five, and `failed` for a policy's `failed` exit. */
export type DecisionRoute = StopRoute | 'failed';

/** Every destination of {@link toLangGraphRoute} and `routeDecision`, for `addConditionalEdges`. */
export const DECISION_ROUTES: readonly DecisionRoute[] = Object.freeze(['turn', 'limit', 'success', 'give_up', 'human', 'failed']);

/**
 * The LangGraph route of an engine decision: `continue` and `retry` go back
 * to `turn` (a retry's feedback is in the decision, for the next turn's
 * prompt); a stop goes to the node named after its exit: `success`, `limit`,
 * `give_up` (exit `gave_up`), `human` (exit `need_help`) or `failed`. A value
 * that is not a decision throws a `TypeError`, so a run never ends by accident.
 *
 * @example
 * toLangGraphRoute(decide(policy, state, event).decision); // 'turn'
 */
export function toLangGraphRoute(decision: StopDecision): DecisionRoute {
  if (typeof decision !== 'object' || decision === null) throw new TypeError(`a stop decision must be an object, got ${describeValue(decision)}`);
  switch (decision.kind) {
    case 'continue':
    case 'retry':
      return 'turn';
    case 'stop':
      switch (decision.exit) {
        case 'success':
          return 'success';
        case 'limit':
          return 'limit';
        case 'gave_up':
          return 'give_up';
        case 'need_help':
          return 'human';
        case 'failed':
          return 'failed';
        default:
          throw new TypeError(`stop decision exit must be one of success, limit, gave_up, need_help, failed, got ${describeValue((decision as { exit: unknown }).exit)}`);
      }
    default:
      throw new TypeError(`stop decision kind must be continue, retry or stop, got ${describeValue((decision as { kind: unknown }).kind)}`);
  }
}
