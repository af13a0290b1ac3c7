import type { AgentLoopState } from '../core/agent-loop-state.js';
import type { TestEvidence } from '../core/test-evidence.js';
import { blockContext } from './block-context.js';
import { evaluateHookTable, factsOf, stopLimitHandoff } from './decide-stop-hook.js';
import { isStopEventName } from './hook-host.js';
import type { StopHookCheck, StopHookDecision } from './stop-hook-decision.js';
import type { StopHookInput } from './stop-hook-input.js';
import type { StopwiseConfig } from './stopwise-config.js';
import { toStopHookDecision } from './to-stop-hook-decision.js';

/** A stop hook's answer before it is encoded for the host: the decision, and the context a block appends for the agent. */
export interface StopAnswer {
  readonly decision: StopHookDecision;
  readonly additionalContext?: string;
}

/** What {@link decideStopAnswer} decides from. */
export interface StopAnswerParts {
  readonly input: StopHookInput;
  readonly config: Pick<StopwiseConfig, 'task' | 'acceptance' | 'policy'>;
  readonly tests: TestEvidence;
  /** The attempts so far, this one included (`beginStopAttempt`). */
  readonly loop: AgentLoopState;
  readonly reEntered: boolean;
  /** Asks the decision model about this turn; `undefined` when there is none. Called only when its answer can matter. */
  readonly askModel?: () => Promise<StopHookCheck>;
}

/**
 * The stop hook's answer to one attempt, stateless (the loop and the re-entry
 * given): the hook preset decides, the decision model asked only when its
 * rules need the answer (not at the step cap or a stall, not on a re-entry,
 * not when no test ran); a block for the criteria carries the task and
 * acceptance criteria as extra context. The `stopwise hook` command decides
 * the same way over the session's stop state (`decideStopAttempt`).
 */
export async function decideStopAnswer(parts: StopAnswerParts): Promise<StopAnswer> {
  const { input, config, tests, loop, reEntered, askModel } = parts;
  if (input.hook_event_name !== undefined && !isStopEventName(input.hook_event_name)) {
    // Not a stop: nothing to decide but the step cap and a stall.
    return { decision: stopLimitHandoff(tests, loop, config.policy) };
  }
  let checked: StopHookCheck = undefined;
  let result = evaluateHookTable(tests, 'not asked', loop, reEntered, config.policy);
  if ('pending' in result) {
    checked = askModel === undefined ? undefined : await askModel();
    result = evaluateHookTable(tests, checked, loop, reEntered, config.policy);
  }
  if ('pending' in result) throw new TypeError(`the hook preset could not decide: rule "${result.pending}" is waiting for the decision model`);
  const decision = toStopHookDecision(result.decision, factsOf(tests, checked));
  const additionalContext = blockContext(config, decision, tests);
  return additionalContext === undefined ? { decision } : { decision, additionalContext };
}
