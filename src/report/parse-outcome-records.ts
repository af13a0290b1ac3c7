import type { BudgetLimitKind } from '../core/budget.js';
import { describeValue } from '../core/describe-value.js';
import { ISO_TIME } from '../core/outcome-record.js';
import { STOP_EXITS, type StopExit } from '../core/policy/stop-decision.js';
import { lineError, LineFieldError, readObject, type LineError } from '../input/line-fields.js';
import { LIMIT_KINDS, type HumanWait, type ReportedOutcome, type ReportedRun } from './reported-run.js';

/** How {@link parseOutcomeRecords} treats a line it cannot read. */
export interface ParseOutcomeRecordsOptions {
  /** Skip bad lines and count them instead of stopping at the first (default false). */
  readonly skipInvalid?: boolean;
}

/** The lines that were skipped: how many, the first few line numbers, and the first problem. */
export interface SkippedLines {
  readonly count: number;
  readonly lines: readonly number[];
  readonly first?: LineError;
}

/** The result of {@link parseOutcomeRecords}. */
export type OutcomeRecordsResult =
  | { readonly ok: true; readonly runs: readonly ReportedRun[]; readonly skipped: SkippedLines }
  | { readonly ok: false; readonly error: LineError };

/** How many skipped line numbers are kept. */
const KEPT_LINE_NUMBERS = 10;

/** Reads an outcomes file line by line: `line` for each line, `result` at the end. */
export interface OutcomeRecordReader {
  /** Reads one line (1-based `number`); returns false once reading must stop (a bad line without `skipInvalid`). */
  line(text: string, number: number): boolean;
  result(): OutcomeRecordsResult;
  /** What was read so far, unmerged: for a part of a file read apart from the rest (see `mergeOutcomeSegments`). */
  segment(): OutcomeSegment;
}

/**
 * What a reader of one part of a file found, with the line numbers it was given: the runs, the
 * lines it skipped (how many, the first few, the first problem) or the problem it stopped at.
 * Plain data, so that a worker thread can hand it back.
 */
export interface OutcomeSegment {
  readonly runs: ReportedRun[];
  readonly skippedCount: number;
  readonly skippedLines: readonly number[];
  readonly first?: LineError;
  readonly stopped?: LineError;
}

/**
 * Reads an outcomes file, one record a line:
 * `{ "outcome": <StopOutcome>, "taskType"?, "independentCheck"?, "impossible"?, "at": "<ISO 8601>" }`.
 * Blank lines and a byte-order mark are skipped, unknown fields ignored. Never throws on bad
 * input: the first bad line comes back as an error naming its line and field,
 * or, with `skipInvalid`, every bad line is skipped and counted. A file with
 * no record is an error.
 *
 * @example
 * const read = parseOutcomeRecords(text, 'outcomes.jsonl');
 * if (!read.ok) console.error(formatLineError(read.error)); // outcomes.jsonl:7: at: must be an ISO 8601 time with a zone, ...
 */
export function parseOutcomeRecords(text: string, source = '<input>', options: ParseOutcomeRecordsOptions = {}): OutcomeRecordsResult {
  const reader = createOutcomeRecordReader(source, options);
  let start = 0;
  for (let number = 1; start <= text.length; number += 1) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end === -1 ? text.length : end);
    start = end === -1 ? text.length + 1 : end + 1;
    if (!reader.line(line, number)) break;
  }
  return reader.result();
}

/**
 * The line-by-line form of {@link parseOutcomeRecords}, for a file read in chunks. `atFileStart`
 * false reads a part that starts inside a file: its first line is not where a byte-order mark goes.
 */
export function createOutcomeRecordReader(source: string, options: ParseOutcomeRecordsOptions = {}, atFileStart = true): OutcomeRecordReader {
  const runs: ReportedRun[] = [];
  const skippedLines: number[] = [];
  let skipped = 0;
  let first: LineError | undefined;
  let stopped: LineError | undefined;
  return {
    line(raw, number) {
      if (stopped !== undefined) return false;
      const text = atFileStart && number === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
      if (text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim() === '')) return true;
      let problem: LineError | undefined;
      try {
        runs.push(readRecord(JSON.parse(text) as unknown, number));
      } catch (error) {
        if (error instanceof SyntaxError) problem = lineError(source, number, undefined, `not valid JSON (${error.message})`);
        else if (error instanceof LineFieldError) problem = lineError(source, number, error.field, error.message);
        else throw error;
      }
      if (problem === undefined) return true;
      if (options.skipInvalid !== true) {
        stopped = problem;
        return false;
      }
      skipped += 1;
      first ??= problem;
      if (skippedLines.length < KEPT_LINE_NUMBERS) skippedLines.push(number);
      return true;
    },
    result() {
      return mergeOutcomeSegments(source, [{ segment: this.segment(), lineOffset: 0 }]);
    },
    segment() {
      return { runs, skippedCount: skipped, skippedLines, ...(first === undefined ? {} : { first }), ...(stopped === undefined ? {} : { stopped }) };
    },
  };
}

/**
 * The result of reading a file in parts, each part's line numbers counted from its own start and
 * moved by `lineOffset` (the lines of the parts before it): the same result, with the same line
 * numbers and the same first error, as reading the file from end to end.
 */
export function mergeOutcomeSegments(source: string, parts: readonly { readonly segment: OutcomeSegment; readonly lineOffset: number }[]): OutcomeRecordsResult {
  const moved = (error: LineError, offset: number): LineError => ({ ...error, source, ...(error.line === undefined ? {} : { line: error.line + offset }) });
  const runs: ReportedRun[] = [];
  const lines: number[] = [];
  let count = 0;
  let first: LineError | undefined;
  for (const { segment, lineOffset } of parts) {
    for (const run of segment.runs) runs.push(lineOffset === 0 ? run : { ...run, line: run.line + lineOffset });
    if (segment.stopped !== undefined) return { ok: false, error: moved(segment.stopped, lineOffset) };
    count += segment.skippedCount;
    for (const line of segment.skippedLines) if (lines.length < KEPT_LINE_NUMBERS) lines.push(line + lineOffset);
    if (first === undefined && segment.first !== undefined) first = moved(segment.first, lineOffset);
  }
  if (runs.length === 0) {
    if (first === undefined) return { ok: false, error: lineError(source, undefined, undefined, 'the file holds no records') };
    return { ok: false, error: { ...first, message: `${first.message}; no line could be read (${count} skipped)` } };
  }
  return { ok: true, runs, skipped: { count, lines, ...(first === undefined ? {} : { first }) } };
}

function readRecord(value: unknown, line: number): ReportedRun {
  const record = readObject(value, undefined);
  const at = readTime(record.at);
  const outcome = readOutcome(record.outcome);
  const run: { -readonly [K in keyof ReportedRun]: ReportedRun[K] } = { outcome, line, at, humanWaits: readHumanWaits(record.outcome as Record<string, unknown>, outcome) };
  if (record.taskType !== undefined) {
    if (typeof record.taskType !== 'string' || record.taskType.trim() === '') {
      throw new LineFieldError(`must be a non-empty string, got ${describeValue(record.taskType)}`, 'taskType');
    }
    run.taskType = record.taskType;
  }
  for (const flag of ['independentCheck', 'impossible'] as const) {
    const flagValue = record[flag];
    if (flagValue === undefined) continue;
    if (typeof flagValue !== 'boolean') throw new LineFieldError(`must be a boolean, got ${describeValue(flagValue)}`, flag);
    run[flag] = flagValue;
  }
  return run;
}

function readTime(value: unknown): number {
  if (value === undefined) throw new LineFieldError('is missing; expected the time the run ended, ISO 8601 with a zone (2026-03-01T12:00:00Z)', 'at');
  const ms = typeof value === 'string' && ISO_TIME.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms)) throw new LineFieldError(`must be an ISO 8601 time with a zone (2026-03-01T12:00:00Z), got ${describeValue(value)}`, 'at');
  return ms;
}

function readOutcome(value: unknown): ReportedOutcome {
  if (value === undefined) throw new LineFieldError('is missing; expected the StopOutcome of the run', 'outcome');
  const outcome = readObject(value, 'outcome');
  const exit = outcome.exit;
  if (!(STOP_EXITS as readonly unknown[]).includes(exit)) {
    throw new LineFieldError(`must be one of ${STOP_EXITS.join(', ')}, got ${describeValue(exit)}`, 'outcome.exit');
  }
  const steps = outcome.steps;
  if (typeof steps !== 'number' || !Number.isInteger(steps) || steps < 0) {
    throw new LineFieldError(`must be a non-negative integer, got ${describeValue(steps)}`, 'outcome.steps');
  }
  const usage = readObject(outcome.usage, 'outcome.usage');
  const read: { exit: StopExit; steps: number; usage: { wallClockMs: number; cost: number }; limit?: BudgetLimitKind; note?: string; waitedMs?: number } = {
    exit: exit as StopExit,
    steps,
    usage: { wallClockMs: readAmount(usage.wallClockMs, 'outcome.usage.wallClockMs'), cost: readAmount(usage.cost, 'outcome.usage.cost') },
  };
  switch (read.exit) {
    case 'limit':
      if (!(LIMIT_KINDS as readonly unknown[]).includes(outcome.limit)) {
        throw new LineFieldError(`must be one of ${LIMIT_KINDS.join(', ')}, got ${describeValue(outcome.limit)}`, 'outcome.limit');
      }
      read.limit = outcome.limit as BudgetLimitKind;
      break;
    case 'gave_up':
      read.note = readText(outcome.note, 'outcome.note');
      break;
    case 'need_help':
      read.note = readText(outcome.question, 'outcome.question');
      read.waitedMs = readAmount(outcome.waitedMs, 'outcome.waitedMs');
      break;
    default:
      break;
  }
  return read;
}

/**
 * The questions put to people during the run: the `human` of each turn in the
 * trace; a hand-off whose trace holds none (a stop hook's record) counts its
 * own wait, unanswered, when it waited at all.
 */
function readHumanWaits(outcome: Record<string, unknown>, read: ReportedOutcome): HumanWait[] {
  const waits: HumanWait[] = [];
  const trace = outcome.trace;
  if (trace !== undefined) {
    if (!Array.isArray(trace)) throw new LineFieldError(`must be an array, got ${describeValue(trace)}`, 'outcome.trace');
    trace.forEach((turn: unknown, index) => {
      if (typeof turn !== 'object' || turn === null) return;
      const human = (turn as Record<string, unknown>).human;
      if (human === undefined) return;
      const at = `outcome.trace[${index}].human`;
      const exchange = readObject(human, at);
      const waitedMs = readAmount(exchange.waitedMs, `${at}.waitedMs`);
      if (typeof exchange.timedOut !== 'boolean') throw new LineFieldError(`must be a boolean, got ${describeValue(exchange.timedOut)}`, `${at}.timedOut`);
      if (exchange.answer !== undefined && typeof exchange.answer !== 'string') {
        throw new LineFieldError(`must be a string, got ${describeValue(exchange.answer)}`, `${at}.answer`);
      }
      waits.push({ waitedMs, answered: exchange.answer !== undefined, timedOut: exchange.timedOut });
    });
  }
  if (waits.length === 0 && read.exit === 'need_help' && (read.waitedMs ?? 0) > 0) {
    waits.push({ waitedMs: read.waitedMs ?? 0, answered: false, timedOut: true });
  }
  return waits;
}

function readAmount(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new LineFieldError(`must be a non-negative finite number, got ${describeValue(value)}`, field);
  }
  return value;
}

function readText(value: unknown, field: string): string {
  if (typeof value !== 'string') throw new LineFieldError(`must be a string, got ${describeValue(value)}`, field);
  return value;
}
