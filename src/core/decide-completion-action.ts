import type { AgentLoopState } from './agent-loop-state.js';
import type { CompletionAction } from './completion-action.js';
import { lowestCriterion, type CriterionProbabilities } from './criterion-probabilities.js';
import { decide } from './policy/decide.js';
import { seedStopPolicy } from './policy/seed-stop-policy.js';
import { toCompletionAction } from './policy/to-completion-action.js';
import { seedStep } from './seed-step.js';
import { DEFAULT_POLICY, type StopPolicy } from './stop-policy.js';
import { assertTestEvidence, type TestEvidence } from './test-evidence.js';

/**
 * Decides what a loop does next from the criterion probabilities, the test
 * evidence and the loop state: `decide` with the seed preset
 * (`seedStopPolicy(policy)`), as a `CompletionAction`. First match wins:
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
export function decideCompletionAction(
  probabilities: CriterionProbabilities,
  tests: TestEvidence,
  loop: AgentLoopState,
  policy: StopPolicy = DEFAULT_POLICY,
): CompletionAction {
  // Probabilities are checked first, as the table always did: a bad one throws whatever rule would fire.
  lowestCriterion(probabilities);
  assertTestEvidence(tests);
  const document = seedStopPolicy(policy);
  const { state, event } = seedStep(document, loop, tests, probabilities);
  return withLoopFingerprint(toCompletionAction(decide(document, state, event).decision, policy), loop);
}

/** A stall names the loop's own last fingerprint, as the caller gave it. */
export function withLoopFingerprint(action: CompletionAction, loop: AgentLoopState): CompletionAction {
  if (action.reason !== 'stalled') return action;
  const last = loop.recentFingerprints[loop.recentFingerprints.length - 1];
  return last === undefined || last === action.values.fingerprint ? action : { ...action, values: { ...action.values, fingerprint: last } };
}
