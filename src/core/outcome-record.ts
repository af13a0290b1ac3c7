import { STOP_EXITS } from './policy/stop-decision.js';
import type { FailedOutcome, StopOutcome } from './stop-outcome.js';

/** A `StopOutcome` as an outcomes file stores it: a failure without the thrown `cause`, which is not plain data. */
export type RecordedOutcome = Exclude<StopOutcome, FailedOutcome> | Omit<FailedOutcome, 'cause'>;

/**
 * One line of an outcomes file: how a run ended, when, and what is known
 * about it (the fields `summarizeOutcomes` reads, plus the time). Plain JSON.
 */
export interface OutcomeRecord {
  readonly outcome: RecordedOutcome;
  readonly taskType?: string;
  /** Whether a check independent of the run confirmed its result. */
  readonly independentCheck?: boolean;
  /** Whether the task was impossible on purpose (so giving up was right). */
  readonly impossible?: boolean;
  /** When the run ended: ISO 8601 with a time zone. */
  readonly at: string;
}

/** What {@link toOutcomeRecord} adds to an outcome; `at` is required because the core reads no clock. */
export interface OutcomeRecordFields {
  readonly at: Date | string;
  readonly taskType?: string;
  readonly independentCheck?: boolean;
  readonly impossible?: boolean;
}

/** ISO 8601 date and time with a zone: `2026-03-01T12:00:00Z`, `2026-03-01T12:00:00.250+01:00`. */
export const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * The line to append to an outcomes file for a finished run: the outcome
 * (without a failure's thrown `cause`), the task type and flags when given,
 * and the time it ended. Throws a `TypeError` for an outcome without a known
 * exit, a time that is not ISO 8601 with a zone, or a field of the wrong type.
 *
 * @example
 * const line = `${JSON.stringify(toOutcomeRecord(outcome, { at: '2026-03-01T12:00:00Z', taskType: 'bugfix' }))}\n`;
 */
export function toOutcomeRecord(outcome: StopOutcome, fields: OutcomeRecordFields): OutcomeRecord {
  if (typeof outcome !== 'object' || outcome === null || !(STOP_EXITS as readonly unknown[]).includes(outcome.exit)) {
    throw new TypeError(`toOutcomeRecord: outcome must be a StopOutcome with exit ${STOP_EXITS.join(', ')}`);
  }
  if (typeof fields !== 'object' || fields === null) throw new TypeError('toOutcomeRecord: fields must be an object { at, taskType? }');
  const { taskType, independentCheck, impossible } = fields;
  if (taskType !== undefined && (typeof taskType !== 'string' || taskType.trim() === '')) {
    throw new TypeError('toOutcomeRecord: taskType must be a non-empty string');
  }
  if (independentCheck !== undefined && typeof independentCheck !== 'boolean') throw new TypeError('toOutcomeRecord: independentCheck must be a boolean');
  if (impossible !== undefined && typeof impossible !== 'boolean') throw new TypeError('toOutcomeRecord: impossible must be a boolean');
  return {
    outcome: plainOutcome(outcome),
    ...(taskType === undefined ? {} : { taskType }),
    ...(independentCheck === undefined ? {} : { independentCheck }),
    ...(impossible === undefined ? {} : { impossible }),
    at: isoTime(fields.at),
  };
}

function plainOutcome(outcome: StopOutcome): RecordedOutcome {
  if (outcome.exit !== 'failed') return outcome;
  const { cause: _cause, ...rest } = outcome;
  return rest;
}

function isoTime(at: Date | string): string {
  if (at instanceof Date) {
    if (!Number.isFinite(at.getTime())) throw new TypeError('toOutcomeRecord: at is an invalid Date');
    return at.toISOString();
  }
  if (typeof at !== 'string' || !ISO_TIME.test(at) || !Number.isFinite(Date.parse(at))) {
    throw new TypeError(`toOutcomeRecord: at must be a Date or an ISO 8601 time with a zone (2026-03-01T12:00:00Z), got ${String(at)}`);
  }
  return at;
}
