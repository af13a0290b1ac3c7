import type { StopPolicy } from '../core/stop-policy.js';
import type { TestEvidence } from '../core/test-evidence.js';
import type { StopHookCheck } from './decide-stop-hook.js';

/** What the hook asks the decision model about. */
export interface HookCompletionRequest {
  readonly task: string;
  readonly acceptance: readonly string[];
  /** The agent's last message. */
  readonly output: string;
  readonly tests: TestEvidence;
  readonly policy: StopPolicy;
}

/**
 * Asks the configured decision model whether the turn is done. Resolves to
 * the judgement, or to an `Error` when the model could not be asked (it never
 * rejects): a model that is down is an answer the decision table handles.
 */
export interface HookDecisionModel {
  check(request: HookCompletionRequest): Promise<Exclude<StopHookCheck, undefined>>;
}
