import { Annotation } from '@langchain/langgraph';
import { MAX_AGENT_STEPS } from '../../core/stop-policy.js';
import type { StopSignal } from './route-stop.js';

function replace<T>(_previous: T, next: T): T {
  return next;
}

/**
 * A LangGraph state annotation with the fields {@link routeStop} reads:
 * `steps` (0), `maxSteps` (`MAX_AGENT_STEPS`), `signal` (`'continue'`),
 * `verified` (`false`) and `signalStep` (absent); each update replaces the
 * value, and a field a node does not return keeps its old value. A turn that
 * sets `signal` and `verified` sets `signalStep` to its new `steps` in the
 * same update, so that a later turn that sets neither (it only called tools)
 * is read as no signal rather than as the old one. Spread its `spec` into
 * your own `Annotation.Root` to add fields.
 *
 * @example
 * const State = Annotation.Root({ ...StopStateAnnotation.spec, messages: MessagesAnnotation.spec.messages });
 */
export const StopStateAnnotation = Annotation.Root({
  steps: Annotation<number>({ reducer: replace, default: () => 0 }),
  maxSteps: Annotation<number>({ reducer: replace, default: () => MAX_AGENT_STEPS }),
  signal: Annotation<StopSignal>({ reducer: replace, default: () => 'continue' }),
  verified: Annotation<boolean>({ reducer: replace, default: () => false }),
  signalStep: Annotation<number | undefined>({ reducer: replace, default: () => undefined }),
});
