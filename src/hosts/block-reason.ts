import { cutText } from '../core/cut-text.js';
import type { TestFailure } from '../core/test-evidence.js';

/**
 * A completion check that did not pass, as `checkCompletion` reports it (or
 * built from the test evidence when no decision model was asked).
 */
export interface UnmetCompletion {
  readonly done: boolean;
  readonly reason: 'no_tests_ran' | 'tests_failed' | 'criteria_below_threshold' | 'tests_and_criteria_passed';
  /** P(true) per criterion, when the decision model was asked. */
  readonly probabilities?: Readonly<Record<string, number>>;
  /** The failed test names, for `tests_failed`. */
  readonly failed?: readonly string[];
  /** The failures with their messages, when the test reader gave them. */
  readonly failures?: readonly TestFailure[];
  /** The threshold each probability must reach (default 0.7). */
  readonly doneThreshold?: number;
}

const MAX_NAMES = 10;
const MAX_NAME_LENGTH = 200;
const MAX_MESSAGE_LENGTH = 300;
const STACK_FRAME = /^\s+at \S/;

/**
 * The text a blocked agent reads: what is not done yet and what to do about it
 * (the failed tests by name, "no tests ran, run the suite", or the criterion
 * probabilities that are below the threshold). Throws a `TypeError` for a
 * completion that is done: there is nothing to block.
 *
 * @example
 * blockReasonFromCompletion({ done: false, reason: 'tests_failed', failed: ['auth > rejects expired token'] });
 * // '1 test failed: auth > rejects expired token. Fix it and run the tests again before you stop.'
 */
export function blockReasonFromCompletion(result: UnmetCompletion): string {
  switch (result.reason) {
    case 'no_tests_ran':
      return withDetails(
        'No tests ran, run the suite: there is no test result for this turn. Run the project tests and make them pass before you stop.',
        result.failures,
      );
    case 'tests_failed':
      return failedTestsReason(result.failed ?? [], result.failures);
    case 'criteria_below_threshold':
      return criteriaReason(result.probabilities ?? {}, result.doneThreshold ?? 0.7);
    case 'tests_and_criteria_passed':
      throw new TypeError('blockReasonFromCompletion needs a completion that is not done');
    default:
      throw new TypeError(`unknown completion reason ${JSON.stringify((result as { reason: unknown }).reason)}`);
  }
}

/** "2 tests failed: a, b" with at most ten names, each cut to a sane length. */
export function describeFailedTests(failed: readonly string[]): string {
  if (failed.length === 0) return 'the test run failed';
  const shown = failed.slice(0, MAX_NAMES).map((name) => clip(name, MAX_NAME_LENGTH)).join('; ');
  const more = failed.length > MAX_NAMES ? ` and ${failed.length - MAX_NAMES} more` : '';
  return `${failed.length} test${failed.length === 1 ? '' : 's'} failed: ${shown}${more}`;
}

/** The criterion probabilities, lowest first, as `name = 0.55`. */
export function describeProbabilities(probabilities: Readonly<Record<string, number>>): string {
  const entries = Object.entries(probabilities).sort(([, a], [, b]) => a - b);
  if (entries.length === 0) return 'no criteria';
  return entries.map(([name, probability]) => `${name} = ${formatProbability(probability)}`).join(', ');
}

function failedTestsReason(failed: readonly string[], failures: readonly TestFailure[] | undefined): string {
  const head =
    failed.length === 0
      ? 'The test run failed outside any single test (a crash, a compile error or a failing command). Fix it and run the tests again before you stop.'
      : `${describeFailedTests(failed)}. Fix ${failed.length === 1 ? 'it' : 'them'} and run the tests again before you stop.`;
  return withDetails(head, failures);
}

function withDetails(head: string, failures: readonly TestFailure[] | undefined): string {
  const details = (failures ?? [])
    .filter((failure) => failure.message.trim() !== '')
    .slice(0, MAX_NAMES)
    .map((failure) => `- ${clip(failure.name, MAX_NAME_LENGTH)}: ${clip(oneLine(failure.message), MAX_MESSAGE_LENGTH)}`);
  return details.length === 0 ? head : `${head}\n${details.join('\n')}`;
}

function criteriaReason(probabilities: Readonly<Record<string, number>>, threshold: number): string {
  const below = Object.entries(probabilities).filter(([, probability]) => probability < threshold);
  const lowest = below.length === 0 ? '' : ` (below ${formatProbability(threshold)}: ${below.map(([name]) => name).join(', ')})`;
  return (
    `The tests pass, but the completion check is not met: ${describeProbabilities(probabilities)}${lowest}; ` +
    `each criterion must reach ${formatProbability(threshold)}. Check your work against every acceptance criterion of the task, ` +
    'finish what is missing or say what blocks you, then stop.'
  );
}

function formatProbability(value: number): string {
  return String(Number(value.toFixed(3)));
}

/**
 * The whole failure message on one line, without its stack frames: the
 * assertion's values often come after the first line ("Expected values to be
 * strictly equal:" then "3.5 !== 3").
 */
function oneLine(text: string): string {
  return text
    .split('\n')
    .filter((line) => !STACK_FRAME.test(line))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function clip(text: string, max: number): string {
  return cutText(text, max, '...');
}
