import { Annotation } from '@langchain/langgraph';
import type { StopDecision } from '../../core/policy/stop-decision.js';
import type { StopEvent } from '../../core/policy/stop-event.js';
import type { StopState } from '../../core/policy/stop-state.js';

function replace<T>(_previous: T, next: T): T {
  return next;
}

/**
 * A LangGraph state annotation for deciding with the stop engine: `stopEvent`
 * (the event of the last turn, written by the node that did the work),
 * `stopState` (the engine's `StopState`: step count, spend, stall window,
 * retries) and `stopDecision` (the decision for the last event), all `null`
 * before the first turn. They are ordinary channels, so a checkpointer saves
 * them after every super-step and a resumed thread goes on from the counters
 * it had. Each update replaces the value. Spread its `spec` into your own
 * `Annotation.Root`; `decideStop` writes `stopState` and `stopDecision`.
 *
 * @example
 * const State = Annotation.Root({ ...StopEngineAnnotation.spec, messages: MessagesAnnotation.spec.messages });
 */
export const StopEngineAnnotation = Annotation.Root({
  stopEvent: Annotation<StopEvent | null>({ reducer: replace, default: () => null }),
  stopState: Annotation<StopState | null>({ reducer: replace, default: () => null }),
  stopDecision: Annotation<StopDecision | null>({ reducer: replace, default: () => null }),
});

/** The fields of {@link StopEngineAnnotation}, as a node reads them. */
export type StopEngineState = typeof StopEngineAnnotation.State;
