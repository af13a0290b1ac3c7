import type { StopDecision } from '../../core/policy/stop-decision.js';

/**
 * A decision as an AI SDK stop condition's answer: `true` (stop the loop) for
 * a `stop` of any exit, `false` for `continue` and `retry` (the loop goes on if
 * the model does; a stop condition cannot force another step). The exit and
 * the rule travel in `onDecision`, since `stopWhen` answers only a boolean.
 *
 * @example
 * toStopWhenAnswer(decision); // true for { kind: 'stop', exit: 'limit', ... }
 */
export function toStopWhenAnswer(decision: StopDecision): boolean {
  return decision.kind === 'stop';
}
