import { emptyUsage } from '../core/budget.js';
import { cutText } from '../core/cut-text.js';
import type { StopOutcome } from '../core/stop-outcome.js';
import type { StopPolicy } from '../core/stop-policy.js';
import type { TestEvidence } from '../core/test-evidence.js';
import { appendOutcomeRecord } from '../report/append-outcome-record.js';
import type { StopDecision } from '../core/policy/stop-decision.js';
import { toStopOutcome } from '../core/policy/to-stop-outcome.js';
import type { StopHookDecision } from './decide-stop-hook.js';
import type { StopAttempt, StopOutcomeKind } from './hook-session-state.js';

/** The longest last message an outcome record keeps. */
const MAX_TEXT = 4000;

/** What one stop attempt left behind, as the hook saves it. */
export interface HookStopAttempt {
  readonly kind: StopOutcomeKind;
  readonly decision: StopHookDecision;
  /** The attempt the hook decided on; absent when it did not decide (the host reported a run that did not complete). */
  readonly attempt?: StopAttempt;
  readonly evidence?: TestEvidence;
  readonly lastMessage: string;
  /** The stop engine's decision the answer projects; absent when the hook answered without deciding (a deadline, a broken command). */
  readonly engineDecision?: StopDecision;
}

/**
 * The run outcome a stop hook reports when it lets the agent stop. When the
 * answer is the projection of an engine `stop` decision, the outcome is that
 * decision's `toStopOutcome` (its exit, its rule, the limit it compared), with
 * the hook's wording as the note or the question: one rule decides the exit,
 * in the hook as in every loop. An answer the engine did not decide that way
 * (a `continue`, a block past the block cap, no decision at all: a deadline, a
 * broken test command) is a `need_help` whose question is the message for the
 * person (nobody was asked: `waitedMs` 0); without an engine decision, a
 * hand-off at the step cap (`policy.maxSteps` stop attempts) is a `steps`
 * limit. `steps` counts the stop attempts of the span. `undefined` for a block
 * (the run goes on) and for a stop the hook did not decide.
 *
 * @example
 * hookStopOutcome({ kind: 'allow', decision: undefined, attempt, evidence, lastMessage: 'Done.' }, policy)?.exit; // 'success'
 */
export function hookStopOutcome(stop: HookStopAttempt, policy: Pick<StopPolicy, 'maxSteps'>): StopOutcome | undefined {
  if (stop.kind === 'block' || (stop.kind === 'allow' && stop.attempt === undefined)) return undefined;
  const steps = stop.attempt?.loop.step ?? 0;
  const base = { steps, usage: { ...emptyUsage(), steps }, text: cutText(stop.lastMessage, MAX_TEXT), trace: [] };
  const tests = stop.evidence === undefined ? 'the checks passed' : `the tests passed (${stop.evidence.ran} ran)`;
  const note = `the stop hook let the agent stop: ${tests}`;
  const message = stop.decision !== undefined && 'systemMessage' in stop.decision ? (stop.decision.systemMessage ?? '') : '';
  const engine = stop.engineDecision;
  if (engine?.kind === 'stop' && (engine.exit === 'success') === (stop.kind === 'allow')) {
    const outcome = toStopOutcome(engine, base);
    if (outcome.exit === 'success') return { ...outcome, note };
    if (outcome.exit === 'need_help') return { ...outcome, question: message === '' ? outcome.question : message };
    return outcome;
  }
  const decided = engine === undefined ? {} : { decision: engine };
  if (stop.kind === 'allow') return { ...base, ...decided, exit: 'success', note };
  if (engine === undefined && stop.attempt !== undefined && steps >= policy.maxSteps) {
    return { ...base, exit: 'limit', limit: 'steps', source: 'budget', key: 'maxSteps', used: steps, max: policy.maxSteps };
  }
  return { ...base, ...decided, exit: 'need_help', question: message, waitedMs: 0 };
}

/**
 * Appends the outcome of a stop the hook let through or handed off to the
 * configured outcomes file (relative to the project folder). Never rejects:
 * a failure comes back as a warning line for the person.
 */
export async function appendHookOutcome(
  file: string,
  stop: HookStopAttempt,
  parts: { readonly policy: Pick<StopPolicy, 'maxSteps'>; readonly taskType?: string; readonly at: Date },
): Promise<string | undefined> {
  const outcome = hookStopOutcome(stop, parts.policy);
  if (outcome === undefined) return undefined;
  try {
    await appendOutcomeRecord(file, outcome, { at: parts.at, ...(parts.taskType === undefined ? {} : { taskType: parts.taskType }) });
    return undefined;
  } catch (error) {
    return `stopwise: the outcome of this stop could not be appended to ${file} (${error instanceof Error ? error.message : String(error)}); the stop itself is not affected.`;
  }
}
