import type { AgentLoopState } from '../core/agent-loop-state.js';
import { noTestsRan, type TestEvidence } from '../core/test-evidence.js';
import { blockContext } from './block-context.js';
import { decideStopHook, stopLimitHandoff, type StopHookCheck, type StopHookDecision } from './decide-stop-hook.js';
import type { StopHookInput } from './stop-hook-input.js';
import type { StopwiseConfig } from './stopwise-config.js';

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
 * The stop hook's answer to one attempt: the step cap and a stall hand off
 * first; otherwise the decision model is asked (unless the attempt re-enters
 * or no test ran) and the decision table applied; a block for the criteria
 * carries the task and acceptance criteria as extra context.
 */
export async function decideStopAnswer(parts: StopAnswerParts): Promise<StopAnswer> {
  const { input, config, tests, loop, reEntered, askModel } = parts;
  let decision: StopHookDecision = stopLimitHandoff(tests, loop, config.policy);
  if (decision === undefined) {
    const checked = askModel !== undefined && !reEntered && !noTestsRan(tests) ? await askModel() : undefined;
    decision = decideStopHook(input, checked, tests, { reEntered, policy: config.policy });
  }
  const additionalContext = blockContext(config, decision, tests);
  return additionalContext === undefined ? { decision } : { decision, additionalContext };
}
