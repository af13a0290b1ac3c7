import type { CriterionProbabilities } from '../core/criterion-probabilities.js';
import type { TestEvidence } from '../core/test-evidence.js';
import { describeValue } from '../core/describe-value.js';
import {
  forEachJsonLine,
  formatLineError,
  lineError,
  LineFieldError,
  readObject,
  readProbabilities,
  readString,
  readStringArray,
  type LineError,
} from '../input/line-fields.js';

/** The optional first line of a recorded run. */
export interface RunTraceHeader {
  readonly task?: string;
  readonly acceptance?: readonly string[];
  readonly taskType?: string;
}

/** One recorded step of an agent run. */
export interface RunTraceStep {
  readonly step: number;
  readonly output: string;
  readonly tests: TestEvidence;
  readonly probabilities: CriterionProbabilities;
  /** 1-based line number in the source. */
  readonly line: number;
}

/** A recorded run: an optional header and its steps in order. */
export interface RunTrace {
  readonly source: string;
  readonly header: RunTraceHeader;
  readonly steps: readonly RunTraceStep[];
}

/** Why a recorded run could not be read, and where (line and field). */
export type RunTraceError = LineError;

/** The result of {@link parseRunTrace}. */
export type RunTraceResult =
  | { readonly ok: true; readonly trace: RunTrace }
  | { readonly ok: false; readonly error: RunTraceError };

/**
 * Reads a recorded run from JSON Lines text: an optional header line
 * `{ task, acceptance, taskType }`, then one step a line
 * `{ step, output, tests: { passed, failed, ran }, probabilities }`. Blank
 * lines are skipped and unknown fields ignored. Never throws on bad input: the
 * result names the line and field that were wrong.
 */
export function parseRunTrace(text: string, source = '<input>'): RunTraceResult {
  let header: RunTraceHeader = {};
  const steps: RunTraceStep[] = [];
  let seenContent = false;
  const error = forEachJsonLine(text, source, (value, line) => {
    const record = readObject(value, undefined);
    if (!seenContent && !('step' in record)) {
      header = readHeader(record);
    } else {
      const step = readStep(record, line);
      const previous = steps[steps.length - 1];
      if (previous !== undefined && step.step <= previous.step) {
        throw new LineFieldError(`step ${step.step} does not come after step ${previous.step}; steps must increase`, 'step');
      }
      steps.push(step);
    }
    seenContent = true;
  });
  if (error !== undefined) return { ok: false, error };
  if (steps.length === 0) return fail(source, undefined, undefined, 'the file holds no steps');
  return { ok: true, trace: { source, header, steps } };
}

/** Formats a trace error as `source:line: field: message`. */
export function formatRunTraceError(error: RunTraceError): string {
  return formatLineError(error);
}

function fail(source: string, line: number | undefined, field: string | undefined, message: string): RunTraceResult {
  return { ok: false, error: lineError(source, line, field, message) };
}

function readHeader(record: Record<string, unknown>): RunTraceHeader {
  const header: { task?: string; acceptance?: readonly string[]; taskType?: string } = {};
  if (record.task !== undefined) header.task = readString(record.task, 'task');
  if (record.taskType !== undefined) header.taskType = readString(record.taskType, 'taskType');
  if (record.acceptance !== undefined) header.acceptance = readStringArray(record.acceptance, 'acceptance');
  return header;
}

function readStep(record: Record<string, unknown>, line: number): RunTraceStep {
  const step = record.step;
  if (typeof step !== 'number' || !Number.isInteger(step) || step < 1) {
    throw new LineFieldError(`must be a positive integer, got ${describeValue(step)}`, 'step');
  }
  if (!('output' in record)) throw new LineFieldError('is missing', 'output');
  const output = readString(record.output, 'output');
  if (!('tests' in record)) throw new LineFieldError('is missing', 'tests');
  const testsRecord = readObject(record.tests, 'tests');
  if (typeof testsRecord.passed !== 'boolean') {
    throw new LineFieldError(`must be a boolean, got ${describeValue(testsRecord.passed)}`, 'tests.passed');
  }
  const ran = testsRecord.ran;
  if (typeof ran !== 'number' || !Number.isInteger(ran) || ran < 0) {
    throw new LineFieldError(`must be a non-negative integer, got ${describeValue(ran)}`, 'tests.ran');
  }
  const failed = readStringArray(testsRecord.failed, 'tests.failed');
  if (!('probabilities' in record)) throw new LineFieldError('is missing', 'probabilities');
  const probabilities = readProbabilities(record.probabilities, 'probabilities');
  return { step, output, tests: { passed: testsRecord.passed, failed, ran }, probabilities, line };
}
