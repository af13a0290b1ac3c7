import type { CriterionProbabilities } from '../core/criterion-probabilities.js';
import { describeDecision } from '../core/policy/describe-decision.js';
import type { StopDecision } from '../core/policy/stop-decision.js';
import type { TestEvidence } from '../core/test-evidence.js';
import { blockReasonFromCompletion, describeFailedTests, describeProbabilities } from './block-reason.js';
import type { StopHookBlock, StopHookDecision, StopHookHandoff } from './stop-hook-decision.js';

/** The line a person reads when the tests fail while the decision model says the task is done. */
export const HUMAN_REVIEW_NOTE =
  'The tests fail while the decision model says the task is done: a person should review this before trusting the result.';

/** What the answer's wording reads besides the decision: the event's evidence and what the decision model said. */
export interface StopHookFacts {
  readonly tests: TestEvidence;
  /** The decision model's answer, when it was asked and answered. */
  readonly probabilities?: CriterionProbabilities;
  /** Why the decision model could not be asked, when it could not. */
  readonly modelError?: Error;
}

/**
 * A stop decision as the stop hook's answer (the mapping table of
 * docs/hosts.md): `retry` blocks with a reason for the agent, `stop` with
 * exit `success` lets the agent stop silently, any other `stop` hands off
 * with a line for the person, and `continue` (no rule decided the stop, or a
 * rule said go on) hands off too: a stop hook cannot keep the agent going
 * without a reason to give it, and never allows silently what no rule allowed.
 * The known reasons (`tests_failed`, `no_tests_ran`, `criteria_below_threshold`,
 * `hard_cap`, `stalled`, ...) get their own wording; any other uses
 * `describeDecision` (and a retry's feedback for the agent).
 */
export function toStopHookDecision(decision: StopDecision, facts: StopHookFacts): StopHookDecision {
  switch (decision.kind) {
    case 'retry':
      return toBlock(decision, facts);
    case 'stop':
      return decision.exit === 'success' ? undefined : toHandoff(decision, facts);
    case 'continue':
      return {
        systemMessage: `stopwise: the stop policy did not decide this stop (${describeDecision(decision)}); a stop hook cannot keep the agent going without a reason for it, so the stop was allowed. A person should look.`,
      };
  }
}

function toBlock(decision: Extract<StopDecision, { kind: 'retry' }>, facts: StopHookFacts): StopHookBlock {
  const { tests } = facts;
  const failures = tests.failures === undefined ? {} : { failures: tests.failures };
  let reason: string;
  switch (decision.reason) {
    case 'tests_failed':
      reason = blockReasonFromCompletion({ done: false, reason: 'tests_failed', failed: tests.failed, ...failures });
      break;
    case 'no_tests_ran':
      reason = blockReasonFromCompletion({ done: false, reason: 'no_tests_ran', ...failures });
      break;
    case 'criteria_below_threshold':
    case 'criteria_mid_band': {
      const values = decision.values;
      const threshold = typeof values.belowProbability === 'number' ? values.belowProbability : Array.isArray(values.band) ? (values.band[1] as number) : undefined;
      reason =
        facts.probabilities === undefined
          ? decision.feedback.message
          : blockReasonFromCompletion({
              done: false,
              reason: 'criteria_below_threshold',
              probabilities: facts.probabilities,
              ...(threshold === undefined ? {} : { doneThreshold: threshold }),
            });
      break;
    }
    default:
      reason = decision.feedback.message.trim() === '' ? `Not done yet: ${describeDecision(decision)}.` : decision.feedback.message;
  }
  // A block that rests on the model being down says so to the person.
  if (decision.values.judge === 'unavailable' && facts.modelError !== undefined) {
    return { decision: 'block', reason, systemMessage: `stopwise: the decision model could not be asked (${facts.modelError.message}); the failing tests decide on their own.` };
  }
  return { decision: 'block', reason };
}

function toHandoff(decision: Extract<StopDecision, { kind: 'stop' }>, facts: StopHookFacts): StopHookHandoff {
  const { tests } = facts;
  const values = decision.values;
  switch (decision.reason) {
    case 'hard_cap':
      return {
        systemMessage: `stopwise: the agent reached the step cap (${String(values.step)} stop attempts in a row, cap ${String(values.maxSteps)}) without meeting the checks; it was let stop. A person should look.`,
      };
    case 'stalled':
      return {
        systemMessage: `stopwise: the last ${String(values.stallRounds)} stop attempts were identical (same test results, same final message): the agent is not making progress; it was let stop. A person should look.`,
      };
    case 'evidence_contradicts_model':
      return {
        systemMessage: `stopwise: ${HUMAN_REVIEW_NOTE} ${capitalize(describeFailedTests(tests.failed))}; ${describeProbabilities(facts.probabilities ?? {})}.`,
      };
    case 'tests_failed_after_block':
      return {
        systemMessage: `stopwise: the tests still fail after the agent was asked to fix them (${describeFailedTests(tests.failed)}); it was let stop so that it does not loop. A person should look.`,
      };
    case 'no_tests_after_block':
      return {
        systemMessage: 'stopwise: still no tests ran after the agent was asked to run the suite; it was let stop so that it does not loop. A person should look.',
      };
    case 'judge_unavailable':
      return {
        systemMessage: `stopwise: the tests pass, but the decision model could not be asked (${facts.modelError?.message ?? 'no answer'}); the stop was allowed without the acceptance check. A person should look.`,
      };
    default:
      return { systemMessage: `stopwise: the stop policy handed this stop to a person (${describeDecision(decision)}); the agent was let stop. A person should look.` };
  }
}

/**
 * The hand-off for a block the stop policy asked for when the session already
 * holds `maxConsecutiveBlocks` blocks in a row: the hook never traps the agent,
 * whatever the policy says.
 */
export function blockCapHandoff(decision: StopDecision, blocks: number): StopHookHandoff {
  return {
    systemMessage: `stopwise: the stop policy asked to block again (${describeDecision(decision)}) after ${blocks} block${blocks === 1 ? '' : 's'} in a row (maxConsecutiveBlocks); the agent was let stop so that it does not loop. A person should look.`,
  };
}

function capitalize(text: string): string {
  return text.length === 0 ? text : `${text[0]?.toUpperCase()}${text.slice(1)}`;
}
