import { combineDoneSignal } from '../core/combine-done-signal.js';
import type { CriterionProbabilities } from '../core/criterion-probabilities.js';
import { DEFAULT_POLICY, assertStopPolicy, type StopPolicy } from '../core/stop-policy.js';
import { createCompletionRequest, type CompletionInput, type CompletionRequest } from './completion-request.js';
import type { DecisionModelCallOptions, DecisionModelClient, DecisionModelUsage } from './decision-model-client.js';
import { validateAnswers, type ValidatedAnswers } from './validate-answers.js';
import { DecisionModelError } from './decision-model-error.js';
import { notifyDecisionModelCall } from '../core/stop-observer.js';

/** The input of {@link checkCompletion}: what to judge, and the policy to judge it with. */
export interface CompletionCheckInput extends CompletionInput {
  readonly policy?: StopPolicy;
}

/** The decision model's probabilities and the model that gave them. */
export interface EvaluatedProbabilities {
  readonly probabilities: CriterionProbabilities;
  readonly model: string;
  readonly usage?: DecisionModelUsage;
}

/** The result of {@link checkCompletion}: the done signal plus what the decision model answered. */
export type CompletionCheck = ReturnType<typeof combineDoneSignal> & EvaluatedProbabilities;

/**
 * Asks the decision model every question in one request and combines its
 * answers with the test evidence (`combineDoneSignal`). Failed or missing
 * tests are never done, whatever the model says; `modelSaysDone` reports the
 * model's view in every case. Every probability is validated again here: a
 * bad answer rejects with an `invalid_response` `DecisionModelError`.
 *
 * @example
 * const check = await checkCompletion(client, { task, output, acceptance: ['returns 429'], tests });
 * if (!check.done) console.log(check.reason, check.probabilities);
 */
export async function checkCompletion(
  client: DecisionModelClient,
  input: CompletionCheckInput,
  options: DecisionModelCallOptions = {},
): Promise<CompletionCheck> {
  const policy = input.policy ?? DEFAULT_POLICY;
  assertStopPolicy(policy);
  assertDecisionModelClient(client);
  const evaluated = await askDecisionModel(client, createCompletionRequest(input), options);
  return { ...combineDoneSignal(evaluated.probabilities, input.tests, policy), ...evaluated };
}

/**
 * Sends a completion request through `client` and validates the answer.
 * Shared by `checkCompletion` and `decideCompletionAfterEvaluate`.
 */
export async function askDecisionModel(
  client: DecisionModelClient,
  request: CompletionRequest,
  options: DecisionModelCallOptions,
): Promise<ValidatedAnswers> {
  if (options.signal?.aborted === true) {
    throw new DecisionModelError('aborted', 'the completion check was aborted before the decision model was asked');
  }
  const result: unknown = await client.evaluate(request, options);
  const validated = validateAnswers(result, request.questions);
  notifyDecisionModelCall(validated);
  return validated;
}

/** Throws a `TypeError` unless `client` has an `evaluate` method. */
export function assertDecisionModelClient(client: DecisionModelClient): void {
  if (typeof client !== 'object' || client === null || typeof client.evaluate !== 'function') {
    throw new TypeError('client must be a DecisionModelClient: an object with an evaluate({ state, questions }) method');
  }
}

/** What one answered request adds to a run's decision-model totals: one call, and its cost when the client reported one. */
export function decisionModelSpend(answered: ValidatedAnswers): { readonly decisionModelCalls: 1; readonly decisionModelCost?: number } {
  const cost = answered.usage?.cost;
  return typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? { decisionModelCalls: 1, decisionModelCost: cost } : { decisionModelCalls: 1 };
}
