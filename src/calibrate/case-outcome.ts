import type { CompletionAction } from '../core/completion-action.js';
import { minCriterionProbability } from '../core/criterion-probabilities.js';
import { decideCompletionAction } from '../core/decide-completion-action.js';
import { createStopPolicy, type StopPolicy } from '../core/stop-policy.js';
import type { TestEvidence } from '../core/test-evidence.js';
import type { ScoredCase } from './labelled-case.js';

/**
 * What the test evidence of a case lets the action table do: `passed` (rule 6
 * can stop it as done), `failed` (rules 4 and 5: never done) or `none` (no
 * tests ran, rule 3: retry, never done).
 */
export type CaseEvidence = 'passed' | 'failed' | 'none';

/** A scored case reduced to what thresholds act on: the lowest criterion probability, the evidence and the label. */
export interface CaseOutcome {
  readonly score: number;
  readonly evidence: CaseEvidence;
  readonly done: boolean;
}

/** The evidence of a case without `tests`: judged on its probabilities alone, as if its tests had passed. */
export const ASSUMED_PASSING_TESTS: TestEvidence = Object.freeze({ passed: true, failed: Object.freeze([]), ran: 1 });

/** A labelled case is one completion check outside any loop: the step cap and stall rules never fire on it. */
const CASE_LOOP = Object.freeze({ step: 0, recentFingerprints: Object.freeze([]) });

/**
 * What `policy` decides on one labelled case, through the real action table
 * (`decideCompletionAction`), with the case's tests (or passing tests when it
 * has none) and a loop at step 0.
 *
 * @example
 * decideCaseAction({ probabilities: { acceptanceCovered: 0.9 }, label: 'done' }, policy).action; // 'stop_done' at doneThreshold 0.7
 */
export function decideCaseAction(labelled: ScoredCase, policy: StopPolicy): CompletionAction {
  return decideCompletionAction(labelled.probabilities, labelled.tests ?? ASSUMED_PASSING_TESTS, CASE_LOOP, policy);
}

/**
 * Reduces a scored case to its {@link CaseOutcome}. The evidence class is read
 * from the action table itself: the case is decided with both thresholds at
 * its own score, so the model "says done" and only the evidence can keep it
 * from `stop_done`.
 */
export function caseOutcome(labelled: ScoredCase): CaseOutcome {
  const score = minCriterionProbability(labelled.probabilities);
  const probe = decideCaseAction(labelled, createStopPolicy({ doneThreshold: score, midBandLow: score }));
  let evidence: CaseEvidence;
  switch (probe.reason) {
    case 'tests_and_criteria_passed':
      evidence = 'passed';
      break;
    case 'no_tests_ran':
      evidence = 'none';
      break;
    case 'evidence_contradicts_model':
      evidence = 'failed';
      break;
    default:
      throw new Error(`unexpected action ${probe.action} (${probe.reason}) when the model says done`);
  }
  return { score, evidence, done: labelled.label === 'done' };
}

/**
 * The action kind the action table gives an outcome under thresholds
 * `doneThreshold` and `midBandLow`: the same as {@link decideCaseAction} on the
 * case it came from (a property test checks this), without building a policy.
 */
export function outcomeAction(
  outcome: CaseOutcome,
  doneThreshold: number,
  midBandLow: number,
): CompletionAction['action'] {
  switch (outcome.evidence) {
    case 'none':
      return 'retry';
    case 'failed':
      return outcome.score >= doneThreshold ? 'handoff_human' : 'retry';
    case 'passed':
      if (outcome.score >= doneThreshold) return 'stop_done';
      return outcome.score >= midBandLow ? 'retry' : 'handoff_human';
  }
}
