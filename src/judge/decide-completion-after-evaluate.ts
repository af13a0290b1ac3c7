import type { AgentLoopState } from '../core/agent-loop-state.js';
import type { CompletionAction, EvidenceAction } from '../core/completion-action.js';
import { decideCompletionAction, decideFromEvidence } from '../core/decide-completion-action.js';
import { DEFAULT_POLICY, type StopPolicy } from '../core/stop-policy.js';
import { askDecisionModel, assertEvaluationClient, type EvaluatedProbabilities } from './check-completion.js';
import { createCompletionRequest, type CompletionInput } from './completion-request.js';
import type { EvaluateOptions, EvaluationClient } from './evaluation-client.js';

/** The input of {@link decideCompletionAfterEvaluate}: what to judge, where the loop is, and the policy. */
export interface CompletionStepInput extends CompletionInput {
  readonly loop: AgentLoopState;
  readonly policy?: StopPolicy;
}

/**
 * The action, and whether the decision model was asked: `evaluated: false`
 * when rules 1 to 3 decided from evidence alone, otherwise `evaluated: true`
 * with the probabilities and the model that answered.
 */
export type EvaluatedCompletionAction =
  | (EvidenceAction & { readonly evaluated: false })
  | (CompletionAction & EvaluatedProbabilities & { readonly evaluated: true });

/**
 * Decides the next action of a loop, asking the decision model only when the
 * step cap, a stall or "no tests ran" (rules 1 to 3) did not already decide.
 * The action is the same as evaluating first and calling
 * `decideCompletionAction`; the model is simply not paid for when its answer
 * cannot change the outcome.
 *
 * @example
 * const next = await decideCompletionAfterEvaluate(client, { task, output, acceptance, tests, loop });
 * if (next.action !== 'retry') return next; // stop_done or handoff_human
 */
export async function decideCompletionAfterEvaluate(
  client: EvaluationClient,
  input: CompletionStepInput,
  options: EvaluateOptions = {},
): Promise<EvaluatedCompletionAction> {
  const policy = input.policy ?? DEFAULT_POLICY;
  assertEvaluationClient(client);
  const request = createCompletionRequest(input);
  const fromEvidence = decideFromEvidence(input.tests, input.loop, policy);
  if (fromEvidence !== undefined) return { ...fromEvidence, evaluated: false };
  const evaluated = await askDecisionModel(client, request, options);
  const action = decideCompletionAction(evaluated.probabilities, input.tests, input.loop, policy);
  return { ...action, ...evaluated, evaluated: true };
}
