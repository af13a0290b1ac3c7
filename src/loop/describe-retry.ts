import type { RetryAction } from '../core/completion-action.js';
import type { CriterionProbabilities } from '../core/criterion-probabilities.js';
import { cutText } from '../core/cut-text.js';
import type { TestEvidence } from '../core/test-evidence.js';
import type { EvaluationQuestions } from '../judge/evaluation-client.js';

/** What {@link describeRetry} may quote besides the action itself. */
export interface RetryDetails {
  /** The test evidence of the step, for the failure messages. */
  readonly tests?: TestEvidence;
  /** Every criterion's probability, so that all those below the threshold are named. */
  readonly probabilities?: CriterionProbabilities;
  /** The questions asked, so that each criterion below the threshold is explained in words. */
  readonly questions?: EvaluationQuestions;
  /** The acceptance criteria of the task, repeated when the judgement is not sure they are met. */
  readonly acceptance?: readonly string[];
}

const MAX_LISTED = 10;
const MAX_MESSAGE_CHARS = 500;

/**
 * The message that tells a working model why its step was not accepted: the
 * failed tests (with their messages when the evidence has them), "no tests
 * ran", or every criterion below the done threshold with its probability.
 *
 * @example
 * describeRetry(action, { tests });
 * // 'Not done yet: 2 tests failed. Fix them, then finish. ...'
 */
export function describeRetry(action: RetryAction, details: RetryDetails = {}): string {
  switch (action.reason) {
    case 'no_tests_ran':
      return 'Not done yet: no tests ran after your last step. Run the test suite, make it pass, then finish.';
    case 'tests_failed':
      return failedTestsText(action.values.failed, details.tests);
    case 'criteria_mid_band':
      return criteriaText(action.values.doneThreshold, action.values.lowestCriterion, action.values.lowestProbability, details);
  }
}

function failedTestsText(failed: readonly string[], tests: TestEvidence | undefined): string {
  if (failed.length === 0) {
    return 'Not done yet: the test run failed without naming a test. Look at the test output, fix the cause, then finish.';
  }
  const messages = new Map((tests?.failures ?? []).map((failure) => [failure.name, failure.message]));
  const lines = failed.slice(0, MAX_LISTED).map((name) => {
    const message = messages.get(name);
    return message === undefined || message.trim() === '' ? `- ${name}` : `- ${name}: ${clip(message.trim())}`;
  });
  if (failed.length > MAX_LISTED) lines.push(`- and ${failed.length - MAX_LISTED} more`);
  const count = `${failed.length} test${failed.length === 1 ? '' : 's'} failed`;
  return `Not done yet: ${count}. Fix ${failed.length === 1 ? 'it' : 'them'}, then finish.\n${lines.join('\n')}`;
}

function criteriaText(
  doneThreshold: number,
  lowestName: string | undefined,
  lowestProbability: number,
  details: RetryDetails,
): string {
  const below = Object.entries(details.probabilities ?? {})
    .filter(([, probability]) => probability < doneThreshold)
    .sort(([, a], [, b]) => a - b);
  if (below.length === 0 && lowestName !== undefined) below.push([lowestName, lowestProbability]);
  const lines = below.map(([name, probability]) => {
    const question = details.questions?.[name]?.instructions;
    return `- ${name}${question === undefined ? '' : ` ("${question}")`}: P(true) = ${probability}, below ${doneThreshold}`;
  });
  let text = `Not done yet: the tests pass, but the completion check is not convinced the task is finished.\n${lines.join('\n')}`;
  if (details.acceptance !== undefined && details.acceptance.length > 0) {
    text += `\nMake sure every acceptance criterion is met and shown in your answer:\n${details.acceptance.map((item) => `- ${item}`).join('\n')}`;
  }
  return text;
}

function clip(text: string): string {
  return cutText(text, MAX_MESSAGE_CHARS, '...');
}
