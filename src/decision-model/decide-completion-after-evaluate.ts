import type { AgentLoopState } from '../core/agent-loop-state.js';
import type { CompletionAction } from '../core/completion-action.js';
import { withLoopFingerprint } from '../core/decide-completion-action.js';
import { decide, needsJudgement } from '../core/policy/decide.js';
import { seedStopPolicy } from '../core/policy/seed-stop-policy.js';
import { toCompletionAction } from '../core/policy/to-completion-action.js';
import { seedStep } from '../core/seed-step.js';
import { DEFAULT_POLICY, type StopPolicy } from '../core/stop-policy.js';
import { assertTestEvidence } from '../core/test-evidence.js';
import { askDecisionModel, assertDecisionModelClient, type EvaluatedProbabilities } from './check-completion.js';
import { createCompletionRequest, type CompletionInput } from './completion-request.js';
import type { DecisionModelCallOptions, DecisionModelClient } from './decision-model-client.js';

/** The input of {@link decideCompletionAfterEvaluate}: what to judge, where the loop is, and the policy. */
export interface CompletionStepInput extends CompletionInput {
  readonly loop: AgentLoopState;
  readonly policy?: StopPolicy;
}

/**
 * Decides the next action of a loop, asking the decision model only when the
 * step cap, a stall or "no tests ran" (rules 1 to 3) did not already decide:
 * `decide` with the seed preset, whose `needsJudgement` says when. The action
 * is the same as asking first and calling `decideCompletionAction`; the model
 * is simply not paid for when its answer cannot change the outcome.
 * `evaluated` says whether it was asked.
 *
 * @example
 * const next = await decideCompletionAfterEvaluate(client, { task, output, acceptance, tests, loop });
 * if (next.action !== 'retry') return next; // stop_done or handoff_human
 */
export async function decideCompletionAfterEvaluate(
  client: DecisionModelClient,
  input: CompletionStepInput,
  options: DecisionModelCallOptions = {},
): Promise<
  | (Extract<CompletionAction, { rule: 1 | 2 | 3 }> & { readonly evaluated: false })
  | (CompletionAction & EvaluatedProbabilities & { readonly evaluated: true })
> {
  const policy = input.policy ?? DEFAULT_POLICY;
  assertDecisionModelClient(client);
  assertTestEvidence(input.tests);
  const request = createCompletionRequest(input);
  const document = seedStopPolicy(policy);
  const { state, event } = seedStep(document, input.loop, input.tests);
  if (!needsJudgement(document, state, event)) {
    const action = withLoopFingerprint(toCompletionAction(decide(document, state, event).decision, policy), input.loop);
    return { ...(action as Extract<CompletionAction, { rule: 1 | 2 | 3 }>), evaluated: false };
  }
  const evaluated = await askDecisionModel(client, request, options);
  const action = toCompletionAction(decide(document, state, { ...event, probabilities: evaluated.probabilities }).decision, policy);
  return { ...action, ...evaluated, evaluated: true };
}
