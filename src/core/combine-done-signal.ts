import type { CriterionProbabilities } from './criterion-probabilities.js';
import { lowestCriterion } from './criterion-probabilities.js';
import { decideUnobserved, initialStopState } from './policy/decide.js';
import { parseStopPolicy } from './policy/parse-stop-policy.js';
import { STOP_POLICY_VERSION, type StopPolicyDocument } from './policy/stop-policy-document.js';
import { DEFAULT_POLICY, assertStopPolicy, type StopPolicy } from './stop-policy.js';
import { assertTestEvidence, type TestEvidence } from './test-evidence.js';

const documents = new Map<number, StopPolicyDocument>();

/**
 * The done-signal table as a policy: each rule pairs the evidence with the
 * model's view, so the rule that fires says both (`..._model_done` rules are
 * where the model says done), and each reads the lowest probability.
 */
function doneSignalPolicy(doneThreshold: number): StopPolicyDocument {
  let document = documents.get(doneThreshold);
  if (document === undefined) {
    const done = { criteria: { gte: doneThreshold } } as const;
    const notDone = { criteria: { lt: doneThreshold } } as const;
    document = parseStopPolicy({
      version: STOP_POLICY_VERSION,
      name: 'done-signal',
      rules: [
        { id: 'no_tests_ran_model_done', when: { all: [{ tests: 'no_tests_ran' }, done] }, then: { kind: 'retry', reason: 'no_tests_ran' } },
        { id: 'no_tests_ran', when: { all: [{ tests: 'no_tests_ran' }, notDone] }, then: { kind: 'retry', reason: 'no_tests_ran' } },
        { id: 'tests_failed_model_done', when: { all: [{ tests: 'failed' }, done] }, then: { kind: 'retry', reason: 'tests_failed' } },
        { id: 'tests_failed', when: { all: [{ tests: 'failed' }, notDone] }, then: { kind: 'retry', reason: 'tests_failed' } },
        { id: 'criteria_below_threshold', when: notDone, then: { kind: 'retry', reason: 'criteria_below_threshold' } },
        { id: 'tests_and_criteria_passed', when: done, then: { kind: 'stop', exit: 'success', reason: 'tests_and_criteria_passed' } },
      ],
    });
    if (documents.size >= 64) documents.clear();
    documents.set(doneThreshold, document);
  }
  return document;
}

const MODEL_DONE: ReadonlySet<string | null> = new Set(['no_tests_ran_model_done', 'tests_failed_model_done', 'tests_and_criteria_passed']);

/**
 * Combines criterion probabilities (AND: the lowest decides) with test evidence.
 *
 * First match wins: no tests ran; tests failed; the model does not say done;
 * otherwise done. However high the probabilities, failed or missing tests
 * mean not done. `modelSaysDone` is reported in every case.
 *
 * @example
 * combineDoneSignal({ acceptanceCovered: 0.9 }, { passed: true, failed: [], ran: 12 });
 * // { done: true, reason: 'tests_and_criteria_passed', modelSaysDone: true, lowestProbability: 0.9 }
 */
export function combineDoneSignal(
  probabilities: CriterionProbabilities,
  tests: TestEvidence,
  policy: StopPolicy = DEFAULT_POLICY,
):
  | { readonly done: false; readonly reason: 'no_tests_ran'; readonly modelSaysDone: boolean; readonly lowestProbability: number }
  | { readonly done: false; readonly reason: 'tests_failed'; readonly modelSaysDone: boolean; readonly lowestProbability: number; readonly failed: readonly string[] }
  | { readonly done: false; readonly reason: 'criteria_below_threshold'; readonly modelSaysDone: false; readonly lowestProbability: number }
  | { readonly done: true; readonly reason: 'tests_and_criteria_passed'; readonly modelSaysDone: true; readonly lowestProbability: number } {
  assertStopPolicy(policy);
  assertTestEvidence(tests);
  lowestCriterion(probabilities);
  const document = doneSignalPolicy(policy.doneThreshold);
  const { decision } = decideUnobserved(document, initialStopState(document), { step: 1, tests, probabilities });
  const lowestProbability = decision.values.lowestProbability as number;
  const modelSaysDone = MODEL_DONE.has(decision.rule);
  switch (decision.reason) {
    case 'no_tests_ran':
      return { done: false, reason: 'no_tests_ran', modelSaysDone, lowestProbability };
    case 'tests_failed':
      return { done: false, reason: 'tests_failed', modelSaysDone, lowestProbability, failed: [...tests.failed] };
    case 'criteria_below_threshold':
      return { done: false, reason: 'criteria_below_threshold', modelSaysDone: false, lowestProbability };
    default:
      return { done: true, reason: 'tests_and_criteria_passed', modelSaysDone: true, lowestProbability };
  }
}
