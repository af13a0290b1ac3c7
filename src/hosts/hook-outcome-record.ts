import { emptyUsage } from '../core/budget.js';
import { cutText } from '../core/cut-text.js';
import { toStopOutcome } from '../core/policy/to-stop-outcome.js';
import type { StopOutcome } from '../core/stop-outcome.js';
import { appendOutcomeRecord } from '../report/append-outcome-record.js';
import type { EncodedStop, StopAnswer } from './host.js';
import type { DecidedStop } from './answer-stop.js';

/** The longest last message an outcome record keeps. */
const MAX_TEXT = 4000;

/**
 * How the run ended when the stop hook lets the agent stop: for an engine
 * `stop`, the decision's outcome (`toStopOutcome`: its exit, its rule, the
 * limit it compared), with the hand-off line as the question of a `need_help`;
 * a `continue` and a hand-off of the hook's own are a `need_help` whose
 * question is the line for the person (nobody was asked: `waitedMs` 0).
 * `steps` counts the stop attempts of the span. `undefined` for a block (the
 * run goes on) and for a run the hook did not check.
 */
export function hookStopOutcome(decided: DecidedStop, encoded: EncodedStop, lastMessage: string): StopOutcome | undefined {
  const answer: StopAnswer = decided.answer;
  if ('skipped' in answer || encoded.kind === 'block') return undefined;
  const steps = decided.step;
  const base = { steps, usage: { ...emptyUsage(), steps }, text: cutText(lastMessage, MAX_TEXT), trace: [] };
  const message = encoded.kind === 'handoff' ? encoded.message : '';
  if ('decision' in answer && answer.decision.kind === 'stop') {
    const outcome = toStopOutcome(answer.decision, base);
    if (outcome.exit === 'success') {
      const tests = decided.tests === undefined ? 'the checks passed' : `the tests passed (${decided.tests.ran} ran)`;
      return { ...outcome, note: `the stop hook let the agent stop: ${tests}` };
    }
    return outcome.exit === 'need_help' ? { ...outcome, question: message } : outcome;
  }
  return { ...base, ...('decision' in answer ? { decision: answer.decision } : {}), exit: 'need_help', question: message, waitedMs: 0 };
}

/**
 * The outcome of a run the tool guard handed to a person at its refusal, on a
 * host that may end the run before any stop: a `need_help` whose question is
 * the hand-off the person reads (nobody waited for the answer: `waitedMs` 0).
 */
export function toolGuardHandOffOutcome(message: string): StopOutcome {
  return { steps: 0, usage: emptyUsage(), text: '', trace: [], exit: 'need_help', question: message, waitedMs: 0 };
}

/**
 * Appends the outcome of a stop the hook let through or handed off to the
 * outcomes file (relative to the project folder). Never rejects: a failure
 * comes back as a warning line for the person.
 */
export async function appendHookOutcome(
  file: string,
  outcome: StopOutcome,
  fields: { readonly at: Date; readonly taskType?: string },
): Promise<string | undefined> {
  try {
    await appendOutcomeRecord(file, outcome, fields);
    return undefined;
  } catch (error) {
    return `stopwise: the outcome of this stop could not be appended to ${file} (${error instanceof Error ? error.message : String(error)}); the stop itself is not affected.`;
  }
}
