import { cutText } from '../cut-text.js';
import type { TestEvidence } from '../test-evidence.js';
import type { DecisionValue, DecisionValues, RetryFeedback, StopDecision } from './stop-decision.js';

// Every sentence a decision is told in: the log line for a person (describeDecision) and the feedback a retry
// gives the agent (retryFeedback, called by decide). Drivers and hosts use these; none writes its own.

const MAX_NAMES = 10;
const MAX_NAME_LENGTH = 200;
const MAX_MESSAGE_LENGTH = 300;
const STACK_FRAME = /^\s+at \S/;

/**
 * One sentence for a log or a person: what was decided, at which step, by
 * which rule, and what the values it compared say, each once.
 *
 * @example
 * describeDecision(decision);
 * // 'stop (limit) at step 20 by rule hard_cap: the step cap is reached (20 of 20)'
 * // 'retry at step 2 by rule tests_failed: 1 test failed: auth > login; lowest criterion acceptanceCovered = 0.4 < 0.7'
 */
export function describeDecision(decision: StopDecision): string {
  const head = decision.kind === 'stop' ? `stop (${decision.exit})` : decision.kind;
  const by = decision.rule === null ? 'as no rule fired' : `by rule ${decision.rule}${decision.reason === decision.rule ? '' : ` (${decision.reason})`}`;
  const evidence = evidenceText(decision.values);
  return `${head} at step ${String(decision.values.step)} ${by}${evidence === '' ? '' : `: ${evidence}`}`;
}

/** What the values of a decision say, as clauses joined by `; `. */
export function evidenceText(values: DecisionValues): string {
  const clauses: string[] = [];
  const failed = Array.isArray(values.failed) ? (values.failed as readonly string[]) : undefined;
  if (failed !== undefined) clauses.push(failedTestsText(failed));
  else if (values.ran === 0) clauses.push('no tests ran');
  else if (typeof values.ran === 'number') clauses.push(`${values.ran} test${values.ran === 1 ? '' : 's'} passed`);
  const criterion = criterionText(values);
  if (criterion !== undefined) clauses.push(criterion);
  for (const [key, value] of Object.entries(values)) {
    if (key.startsWith('check.')) clauses.push(`check ${key.slice(6)} ${String(value)}`);
    else if (key.startsWith('criteria.') && typeof value === 'number' && criterion === undefined) clauses.push(`${key.slice(9)} = ${formatProbability(value)}`);
  }
  const limit = limitText(values);
  if (limit !== undefined) clauses.push(limit);
  if (typeof values.stallRounds === 'number') clauses.push(`the last ${values.stallRounds} steps made no progress (identical test results and output)`);
  if (typeof values.stallMessage === 'string') clauses.push(values.stallMessage);
  if (typeof values.signal === 'string') clauses.push(values.signal === 'none' ? 'the agent signalled nothing' : `the agent signalled ${values.signal}`);
  if (values.verified === true) clauses.push('code verified the claim');
  if (values.verified === false) clauses.push(`code did not verify the claim${Array.isArray(values.unmet) && values.unmet.length > 0 ? `: not met yet ${(values.unmet as readonly string[]).join(', ')}` : ''}`);
  if (values.human === 'answered') clauses.push('a person answered');
  if (values.human === 'timed_out') clauses.push('nobody answered in time');
  if (typeof values.retries === 'number') clauses.push(`after ${values.retries} retr${values.retries === 1 ? 'y' : 'ies'} in a row`);
  if (values.reentered === true) clauses.push('the host says the agent was already sent back once');
  if (values.decisionModel === 'unavailable') clauses.push('the decision model could not answer');
  if (values.decisionModel === 'none') clauses.push('no decision model was asked');
  if (values.provider === 'token_limit') clauses.push("the provider's token limit cut the generation short");
  if (values.provider === 'step_limit') clauses.push("the provider's limit of tool calls or messages was reached");
  if (values.provider === 'failed') clauses.push('the generation could not be read');
  if (typeof values.taskType === 'string') clauses.push(`task type ${values.taskType}`);
  if (values.treeFingerprint !== undefined) clauses.push(values.treeFingerprint === values.testsTreeFingerprint ? 'the tests ran on this tree' : 'the tests ran on another tree');
  return clauses.join('; ');
}

/**
 * What a `retry` tells the agent: what is not done yet (with each failed test's
 * message when the evidence has it) and what to do about it, in one message;
 * the failed tests and the unmet criteria are also given as lists.
 */
export function retryFeedback(
  values: DecisionValues,
  context: {
    readonly tests: TestEvidence | undefined;
    readonly probabilities: Readonly<Record<string, number>> | undefined;
    readonly verification: { readonly ok: boolean; readonly unmet?: readonly string[] } | undefined;
  },
  reason: string,
): RetryFeedback {
  const sentences: string[] = [];
  const failed = Array.isArray(values.failed) ? (values.failed as readonly string[]) : undefined;
  if (values.ran === 0) sentences.push('No tests ran: there is no test result for this step. Run the test suite and make it pass before you finish.');
  if (failed !== undefined) {
    sentences.push(
      failed.length === 0
        ? 'The test run failed outside any single test (a crash, a compile error or a failing command). Fix it and run the tests again before you finish.'
        : `${capitalize(failedTestsText(failed))}. Fix ${failed.length === 1 ? 'it' : 'them'} and run the tests again before you finish.`,
    );
  }
  const threshold = typeof values.minProbability === 'number' ? values.minProbability : Array.isArray(values.band) ? (values.band[1] as number) : typeof values.belowProbability === 'number' ? values.belowProbability : undefined;
  const unmetCriteria: string[] = [];
  const probabilities = context.probabilities;
  if (threshold !== undefined && probabilities !== undefined) {
    for (const name of Object.keys(probabilities)) if ((probabilities[name] as number) < threshold) unmetCriteria.push(name);
    if (unmetCriteria.length > 0 && failed === undefined) {
      sentences.push(
        `The decision model is not convinced the task is done: ${unmetCriteria.map((name) => `${name} = ${formatProbability(probabilities[name] as number)}`).join(', ')} (each must reach ${formatProbability(threshold)}). ` +
          'Check your work against every acceptance criterion, finish what is missing or say what blocks you.',
      );
    }
  }
  if (typeof values.stallMessage === 'string') sentences.push(values.stallMessage);
  const unmetClaims = context.verification?.ok === false ? (context.verification.unmet ?? []) : [];
  if (unmetClaims.length > 0) sentences.push(`Not met yet: ${unmetClaims.join(', ')}.`);
  if (sentences.length === 0) sentences.push(`Not done yet (${reason}${evidenceText(values) === '' ? '' : `: ${evidenceText(values)}`}).`);
  const details = failureDetails(context.tests);
  const feedback: { message: string; failedTests?: readonly string[]; unmetCriteria?: readonly string[] } = {
    message: details === '' || (failed === undefined && values.ran !== 0) ? sentences.join(' ') : `${sentences.join(' ')}\n${details}`,
  };
  if (failed !== undefined && failed.length > 0) feedback.failedTests = failed;
  if (unmetCriteria.length > 0) feedback.unmetCriteria = unmetCriteria;
  return feedback;
}

/**
 * The task and its acceptance criteria, for the agent to check its work
 * against, when a retry's feedback is about the criteria (the decision model
 * is not convinced, the tests are fine); `undefined` otherwise, or when there
 * is neither.
 */
export function taskContext(feedback: RetryFeedback, task: string, acceptance: readonly string[]): string | undefined {
  if (feedback.unmetCriteria === undefined || feedback.unmetCriteria.length === 0 || (feedback.failedTests?.length ?? 0) > 0) return undefined;
  const lines: string[] = [];
  if (task.trim() !== '') lines.push(`Task: ${task.trim()}`);
  if (acceptance.length > 0) lines.push('Acceptance criteria:', ...acceptance.map((item) => `- ${item}`));
  return lines.length === 0 ? undefined : lines.join('\n');
}

/** "2 tests failed: a; b", at most ten names, each cut to a sane length. */
export function failedTestsText(failed: readonly string[]): string {
  if (failed.length === 0) return 'the test run failed';
  const shown = failed.slice(0, MAX_NAMES).map((name) => cutText(name, MAX_NAME_LENGTH, '...')).join('; ');
  const more = failed.length > MAX_NAMES ? ` and ${failed.length - MAX_NAMES} more` : '';
  return `${failed.length} test${failed.length === 1 ? '' : 's'} failed: ${shown}${more}`;
}

/** The criterion probabilities, lowest first, as `name = 0.55`. */
export function probabilitiesText(probabilities: Readonly<Record<string, number>>): string {
  const entries = Object.entries(probabilities).sort(([, a], [, b]) => a - b);
  return entries.length === 0 ? 'no criteria' : entries.map(([name, probability]) => `${name} = ${formatProbability(probability)}`).join(', ');
}

/** A probability as the messages show it: at most three decimals. */
export function formatProbability(value: number): string {
  return String(Number(value.toFixed(3)));
}

function criterionText(values: DecisionValues): string | undefined {
  const probability = values.lowestProbability;
  if (typeof probability !== 'number') return undefined;
  const name = typeof values.lowestCriterion === 'string' ? `lowest criterion ${values.lowestCriterion} = ${formatProbability(probability)}` : `no criteria (vacuous ${formatProbability(probability)})`;
  if (typeof values.minProbability === 'number') return `${name} >= ${formatProbability(values.minProbability)}`;
  if (typeof values.belowProbability === 'number') return `${name} < ${formatProbability(values.belowProbability)}`;
  if (Array.isArray(values.band)) return `${name} in [${formatProbability(values.band[0] as number)}, ${formatProbability(values.band[1] as number)})`;
  return name;
}

const LIMIT_KEYS: readonly (readonly [string, string, string])[] = [
  ['steps', 'maxSteps', 'the step cap is reached'],
  ['wallClockMs', 'maxWallClockMs', 'the wall-clock limit is reached'],
  ['inputTokens', 'maxInputTokens', 'the input token limit is reached'],
  ['outputTokens', 'maxOutputTokens', 'the output token limit is reached'],
  ['totalTokens', 'maxTotalTokens', 'the token limit is reached'],
  ['cost', 'maxCost', 'the cost limit is reached'],
  ['toolErrors', 'maxToolErrors', 'the tool error limit is reached'],
  ['decisionModelCalls', 'maxDecisionModelCalls', "the decision model's call limit is reached"],
  ['decisionModelCost', 'maxDecisionModelCost', "the decision model's spend limit is reached"],
];

function limitText(values: DecisionValues): string | undefined {
  for (const [used, max, text] of LIMIT_KEYS) {
    const a: DecisionValue | undefined = values[used];
    const b: DecisionValue | undefined = values[max];
    if (typeof a === 'number' && typeof b === 'number') return `${text} (${formatAmount(a)} of ${formatAmount(b)})`;
  }
  return undefined;
}

function formatAmount(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(4)));
}

/** Each failed test with its message on one line, without stack frames; `''` when the evidence has no messages. */
function failureDetails(tests: TestEvidence | undefined): string {
  return (tests?.failures ?? [])
    .filter((failure) => failure.message.trim() !== '')
    .slice(0, MAX_NAMES)
    .map((failure) => `- ${cutText(failure.name, MAX_NAME_LENGTH, '...')}: ${cutText(oneLine(failure.message), MAX_MESSAGE_LENGTH, '...')}`)
    .join('\n');
}

/** The whole failure message on one line, without its stack frames (the assertion's values often come after the first line). */
function oneLine(text: string): string {
  return text
    .split('\n')
    .filter((line) => !STACK_FRAME.test(line))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function capitalize(text: string): string {
  return text.length === 0 ? text : `${text[0]?.toUpperCase()}${text.slice(1)}`;
}
