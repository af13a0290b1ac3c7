import type { BudgetLimitKind } from '../core/budget.js';
import type { EvaluatedOutcome, EvaluatedRun } from '../core/evaluated-run.js';

/** The limit kinds a limit outcome names, in the order the report lists them. */
export const LIMIT_KINDS: readonly BudgetLimitKind[] = ['steps', 'wall_clock', 'tokens', 'cost', 'tool_errors'];

/** One question put to a person during a run, as the report counts it. */
export interface HumanWait {
  readonly waitedMs: number;
  readonly answered: boolean;
  readonly timedOut: boolean;
}

/**
 * The part of a recorded outcome the report reads: what `summarizeOutcomes`
 * and `suggestLimits` read, the limit kind of a limit stop, and the note of a
 * give-up or the question of a hand-off (with how long it waited).
 */
export interface ReportedOutcome extends EvaluatedOutcome {
  readonly limit?: BudgetLimitKind;
  readonly note?: string;
  readonly waitedMs?: number;
}

/** One run of an outcomes file as the report reads it: the line it came from, its time in milliseconds since the epoch, its questions to people. */
export interface ReportedRun extends EvaluatedRun {
  readonly outcome: ReportedOutcome;
  readonly line: number;
  readonly at: number;
  readonly humanWaits: readonly HumanWait[];
}
