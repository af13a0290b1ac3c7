// The action table as it was before the stop engine: the baseline of the engine bench, kept as code so
// that the public decideCompletionAction (now a projection of the engine) is measured against it.
import { assertLoopState, type AgentLoopState } from '../src/core/agent-loop-state.js';
import type { CompletionAction, EvidenceAction, JudgedValues } from '../src/core/completion-action.js';
import { lowestCriterion, type CriterionProbabilities } from '../src/core/criterion-probabilities.js';
import { isStalled } from '../src/core/stall.js';
import { DEFAULT_POLICY, assertStopPolicy, type StopPolicy } from '../src/core/stop-policy.js';
import { assertTestEvidence, noTestsRan, testsFailed, type TestEvidence } from '../src/core/test-evidence.js';

/**
 * Rules 1 to 3 of the action table, which need no decision model: the step
 * cap, a stall, and "no tests ran". Returns the action when one of them fires
 * and `undefined` when the decision needs the criterion probabilities.
 *
 * @example
 * decideFromEvidence({ passed: false, failed: [], ran: 0 }, { step: 2, recentFingerprints: [] });
 * // { action: 'retry', reason: 'no_tests_ran', rule: 3, values: { step: 2, ran: 0 } }
 */
function decideFromEvidence(
  tests: TestEvidence,
  loop: AgentLoopState,
  policy: StopPolicy = DEFAULT_POLICY,
): EvidenceAction | undefined {
  assertStopPolicy(policy);
  assertTestEvidence(tests);
  assertLoopState(loop);
  const { step } = loop;
  if (step >= policy.maxSteps) {
    return { action: 'handoff_human', reason: 'hard_cap', rule: 1, values: { step, maxSteps: policy.maxSteps } };
  }
  if (isStalled(loop.recentFingerprints, policy.stallRounds)) {
    const fingerprint = loop.recentFingerprints[loop.recentFingerprints.length - 1] ?? '';
    return {
      action: 'handoff_human',
      reason: 'stalled',
      rule: 2,
      values: { step, stallRounds: policy.stallRounds, fingerprint },
    };
  }
  if (noTestsRan(tests)) {
    return { action: 'retry', reason: 'no_tests_ran', rule: 3, values: { step, ran: 0 } };
  }
  return undefined;
}

/**
 * Decides what a loop does next from the criterion probabilities, the test
 * evidence and the loop state. First match wins:
 *
 * 1. `step >= maxSteps`: hand off, `hard_cap`;
 * 2. the last `stallRounds` fingerprints are identical: hand off, `stalled`;
 * 3. no tests ran: retry, `no_tests_ran`;
 * 4. tests failed while the lowest probability is at or above the done
 *    threshold: hand off, `evidence_contradicts_model`;
 * 5. tests failed: retry, `tests_failed`;
 * 6. lowest probability at or above the done threshold: `stop_done`;
 * 7. lowest probability in [midBandLow, doneThreshold): retry, `criteria_mid_band`;
 * 8. otherwise: hand off, `criteria_low`.
 *
 * Throws a `RangeError` naming the criterion when a probability is not a
 * finite number in [0, 1], and a `TypeError` for a malformed policy, evidence
 * or loop state: no input turns into `stop_done` by accident.
 *
 * @example
 * const action = decideCompletionAction(
 *   { acceptanceCovered: 0.92, noOpenQuestions: 0.81 },
 *   { passed: true, failed: [], ran: 42 },
 *   { step: 3, recentFingerprints: [] },
 * );
 * action.action; // 'stop_done'
 */
export function baselineDecideCompletionAction(
  probabilities: CriterionProbabilities,
  tests: TestEvidence,
  loop: AgentLoopState,
  policy: StopPolicy = DEFAULT_POLICY,
): CompletionAction {
  const lowest = lowestCriterion(probabilities);
  const fromEvidence = decideFromEvidence(tests, loop, policy);
  if (fromEvidence !== undefined) return fromEvidence;

  const values: JudgedValues = {
    step: loop.step,
    ran: tests.ran,
    lowestProbability: lowest.probability,
    ...(lowest.criterion === undefined ? {} : { lowestCriterion: lowest.criterion }),
    doneThreshold: policy.doneThreshold,
    midBandLow: policy.midBandLow,
  };
  const modelSaysDone = lowest.probability >= policy.doneThreshold;
  if (testsFailed(tests)) {
    const failedValues = { ...values, failed: [...tests.failed] };
    return modelSaysDone
      ? { action: 'handoff_human', reason: 'evidence_contradicts_model', rule: 4, values: failedValues }
      : { action: 'retry', reason: 'tests_failed', rule: 5, values: failedValues };
  }
  if (modelSaysDone) return { action: 'stop_done', reason: 'tests_and_criteria_passed', rule: 6, values };
  if (lowest.probability >= policy.midBandLow) {
    return { action: 'retry', reason: 'criteria_mid_band', rule: 7, values };
  }
  return { action: 'handoff_human', reason: 'criteria_low', rule: 8, values };
}
