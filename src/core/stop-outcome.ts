import type { BudgetLimitKind, BudgetLimits, BudgetUsage } from './budget.js';
import type { FinishSignal } from './finish-signal.js';
import type { StopDecision } from './policy/stop-decision.js';

import type { StopExit } from './policy/stop-decision.js';

/** Code's answer to a `done` claim: confirmed, or the criteria that are not met yet. */
export type Verification = { readonly ok: true } | { readonly ok: false; readonly unmet: readonly string[] };

/** What a person was asked during a turn, and what came of it. */
export interface HumanExchange {
  readonly question: string;
  readonly answer?: string;
  readonly waitedMs: number;
  readonly timedOut: boolean;
}

/** What one turn used (its own share, not the running total). */
export interface TurnUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cost: number;
  readonly toolErrors: number;
}

/** One record per turn: the step, what the model signalled, what code verified, the usage and how long it took. */
export interface TurnRecord {
  readonly step: number;
  readonly ms: number;
  readonly usage: TurnUsage;
  readonly wrapUp: boolean;
  readonly signal?: FinishSignal;
  /** What the provider said of the turn's generation, when it did not end normally. */
  readonly provider?: 'token_limit' | 'step_limit' | 'failed';
  readonly verification?: Verification;
  readonly human?: HumanExchange;
  readonly error?: string;
  /** What the stop policy decided after this turn: the kind, the rule that fired (`null` when none did) and its reason. */
  readonly decision?: TurnDecision;
}

/** A turn's decision as the trace keeps it; the full decision of the last turn is the outcome's `decision`. */
export interface TurnDecision {
  readonly kind: StopDecision['kind'];
  readonly rule: string | null;
  readonly reason: string;
}

/** Fields every outcome has: the steps taken, the total usage, the last text and the trace. */
export interface OutcomeBase {
  readonly steps: number;
  readonly usage: BudgetUsage;
  readonly text: string;
  readonly trace: readonly TurnRecord[];
  /**
   * The stop policy's decision that ended the run, with the rule that fired
   * and the values it compared. Absent when no rule decided: a run that ended
   * on an exception or an abort.
   */
  readonly decision?: StopDecision;
}

/** The model signalled done and code verified it. */
export interface SuccessOutcome extends OutcomeBase {
  readonly exit: 'success';
  readonly note: string;
}

/**
 * A limit was reached: one of the run's own limits (`source: 'budget'`, `key`
 * names the limit field), or the provider's own for one generation
 * (`source: 'provider'`, `max` is then `null`).
 * `finalAnswer` is the text of the last turn when it was a wrap-up turn.
 */
export interface LimitOutcome extends OutcomeBase {
  readonly exit: 'limit';
  readonly limit: BudgetLimitKind;
  readonly source: 'budget' | 'provider';
  readonly key?: keyof BudgetLimits;
  readonly used: number;
  readonly max: number | null;
  readonly finalAnswer?: string;
}

/** The model concluded it cannot do the task; `note` says what it tried. */
export interface GaveUpOutcome extends OutcomeBase {
  readonly exit: 'gave_up';
  readonly note: string;
}

/** The run needs a person: the question, and how long it waited for an answer (0 when nobody could be asked). */
export interface NeedHelpOutcome extends OutcomeBase {
  readonly exit: 'need_help';
  readonly question: string;
  readonly waitedMs: number;
}

/** Where an unexpected error came from. */
export type FailurePhase = 'turn' | 'verify' | 'askHuman' | 'decisionModel';

/** An error as plain data. */
export interface OutcomeError {
  readonly name: string;
  readonly message: string;
  readonly during: FailurePhase;
}

/** Something unexpected broke; `cause` is the value that was thrown (not JSON-safe, left out of `trace`). */
export interface FailedOutcome extends OutcomeBase {
  readonly exit: 'failed';
  readonly error: OutcomeError;
  readonly cause?: unknown;
}

/** How a run ended, tagged by `exit`. */
export type StopOutcome = SuccessOutcome | LimitOutcome | GaveUpOutcome | NeedHelpOutcome | FailedOutcome;

/**
 * The one string to put on a trace or a metric: the exit, with the limit kind
 * for a limit.
 *
 * @example
 * stopReasonOf(outcome); // 'success', 'limit:steps', 'gave_up', 'need_help' or 'failed'
 */
export function stopReasonOf(outcome: StopOutcome): string {
  return outcome.exit === 'limit' ? `limit:${outcome.limit}` : outcome.exit;
}
