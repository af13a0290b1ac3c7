import { assertLoopState, type AgentLoopState } from './agent-loop-state.js';
import type { CompletionAction, EvidenceAction } from './completion-action.js';
import { lowestCriterion, type CriterionProbabilities } from './criterion-probabilities.js';
import type { EvaluationContext } from './policy/compile-stop-policy.js';
import { evaluateRules } from './policy/decide.js';
import { seedTemplate } from './policy/seed-stop-policy.js';
import { ZERO_TOTALS } from './policy/stop-state.js';
import { notifyDecision } from './stop-observer.js';
import { toCompletionAction } from './policy/to-completion-action.js';
import { DEFAULT_POLICY, assertStopPolicy, type StopPolicy } from './stop-policy.js';
import { assertTestEvidence, type TestEvidence } from './test-evidence.js';

/**
 * Rules 1 to 3 of the action table, which need no decision model: the step
 * cap, a stall, and "no tests ran". Returns the action when one of them fires
 * and `undefined` when the decision needs the criterion probabilities.
 *
 * @example
 * decideFromEvidence({ passed: false, failed: [], ran: 0 }, { step: 2, recentFingerprints: [] });
 * // { action: 'retry', reason: 'no_tests_ran', rule: 3, values: { step: 2, ran: 0 } }
 */
export function decideFromEvidence(
  tests: TestEvidence,
  loop: AgentLoopState,
  policy: StopPolicy = DEFAULT_POLICY,
): EvidenceAction | undefined {
  const action = evaluateSeed(tests, loop, undefined, policy);
  return action === undefined ? undefined : (action as EvidenceAction);
}

/**
 * Decides what a loop does next from the criterion probabilities, the test
 * evidence and the loop state: the seed preset (`seedStopPolicy(policy)`) of
 * the stop engine, as a `CompletionAction`. First match wins:
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
  const action = evaluateSeed(tests, loop, probabilities, policy);
  if (action === undefined) throw new TypeError('the seed preset could not decide with the probabilities given');
  return action;
}

/**
 * The seed preset on one loop state, as a `CompletionAction`: `undefined`
 * when it needs probabilities it was not given (rules 4 to 8).
 */
function evaluateSeed(
  tests: TestEvidence,
  loop: AgentLoopState,
  probabilities: CriterionProbabilities | undefined,
  policy: StopPolicy,
): CompletionAction | undefined {
  assertStopPolicy(policy);
  assertTestEvidence(tests);
  assertLoopState(loop);
  const result = evaluateRules(seedTemplate(), loopContext(loop, tests, probabilities, policy), false);
  if ('pending' in result) return undefined;
  notifyDecision(result.decision, loop.step, undefined, 'seed');
  return toCompletionAction(result.decision, policy);
}

function loopContext(loop: AgentLoopState, tests: TestEvidence, probabilities: CriterionProbabilities | undefined, policy: StopPolicy): EvaluationContext {
  return {
    step: loop.step,
    totals: ZERO_TOTALS,
    elapsedMs: 0,
    fingerprints: loop.recentFingerprints,
    retries: 0,
    tests,
    probabilities,
    signal: undefined,
    verification: undefined,
    checks: undefined,
    human: undefined,
    tree: undefined,
    params: policy,
  };
}
