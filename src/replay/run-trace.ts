import { assertProbability, type CriterionProbabilities } from '../core/criterion-probabilities.js';
import { describeValue, type TestEvidence } from '../core/test-evidence.js';

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

/** Why a recorded run could not be read, and where. */
export interface RunTraceError {
  readonly source: string;
  /** 1-based line number; absent when the problem is the file as a whole. */
  readonly line?: number;
  /** The field that was wrong, as a dotted path. */
  readonly field?: string;
  readonly message: string;
}

/** The result of {@link parseRunTrace}. */
export type RunTraceResult =
  | { readonly ok: true; readonly trace: RunTrace }
  | { readonly ok: false; readonly error: RunTraceError };

class LineError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/**
 * Reads a recorded run from JSON Lines text: an optional header line
 * `{ task, acceptance, taskType }`, then one step a line
 * `{ step, output, tests: { passed, failed, ran }, probabilities }`. Blank
 * lines are skipped and unknown fields ignored. Never throws on bad input: the
 * result names the line and field that were wrong.
 */
export function parseRunTrace(text: string, source = '<input>'): RunTraceResult {
  const lines = text.split('\n');
  let header: RunTraceHeader = {};
  const steps: RunTraceStep[] = [];
  let seenContent = false;
  for (let index = 0; index < lines.length; index++) {
    const raw = (lines[index] ?? '').trim();
    if (raw === '') continue;
    const line = index + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return fail(source, line, undefined, `not valid JSON (${(error as Error).message})`);
    }
    try {
      const record = asObject(value, 'the line');
      if (!seenContent && !('step' in record)) {
        header = readHeader(record);
      } else {
        const step = readStep(record, line);
        const previous = steps[steps.length - 1];
        if (previous !== undefined && step.step <= previous.step) {
          throw new LineError(
            `step ${step.step} does not come after step ${previous.step}; steps must increase`,
            'step',
          );
        }
        steps.push(step);
      }
      seenContent = true;
    } catch (error) {
      if (error instanceof LineError || error instanceof RangeError) {
        return fail(source, line, error instanceof LineError ? error.field : 'probabilities', error.message);
      }
      throw error;
    }
  }
  if (steps.length === 0) return fail(source, undefined, undefined, 'the file holds no steps');
  return { ok: true, trace: { source, header, steps } };
}

/** Formats a trace error as `source:line: field: message`. */
export function formatRunTraceError(error: RunTraceError): string {
  const where = error.line === undefined ? error.source : `${error.source}:${error.line}`;
  return `${where}: ${error.field === undefined ? '' : `${error.field}: `}${error.message}`;
}

function fail(source: string, line: number | undefined, field: string | undefined, message: string): RunTraceResult {
  return {
    ok: false,
    error: {
      source,
      ...(line === undefined ? {} : { line }),
      ...(field === undefined ? {} : { field }),
      message,
    },
  };
}

function readHeader(record: Record<string, unknown>): RunTraceHeader {
  const header: { task?: string; acceptance?: readonly string[]; taskType?: string } = {};
  if (record.task !== undefined) header.task = asString(record.task, 'task');
  if (record.taskType !== undefined) header.taskType = asString(record.taskType, 'taskType');
  if (record.acceptance !== undefined) header.acceptance = asStringArray(record.acceptance, 'acceptance');
  return header;
}

function readStep(record: Record<string, unknown>, line: number): RunTraceStep {
  const step = record.step;
  if (typeof step !== 'number' || !Number.isInteger(step) || step < 1) {
    throw new LineError(`must be a positive integer, got ${describeValue(step)}`, 'step');
  }
  if (!('output' in record)) throw new LineError('is missing', 'output');
  const output = asString(record.output, 'output');
  if (!('tests' in record)) throw new LineError('is missing', 'tests');
  const testsRecord = asObject(record.tests, 'tests');
  if (typeof testsRecord.passed !== 'boolean') {
    throw new LineError(`must be a boolean, got ${describeValue(testsRecord.passed)}`, 'tests.passed');
  }
  const ran = testsRecord.ran;
  if (typeof ran !== 'number' || !Number.isInteger(ran) || ran < 0) {
    throw new LineError(`must be a non-negative integer, got ${describeValue(ran)}`, 'tests.ran');
  }
  const failed = asStringArray(testsRecord.failed, 'tests.failed');
  if (!('probabilities' in record)) throw new LineError('is missing', 'probabilities');
  const probabilitiesRecord = asObject(record.probabilities, 'probabilities');
  const probabilities: Record<string, number> = {};
  for (const [name, value] of Object.entries(probabilitiesRecord)) {
    try {
      assertProbability(name, value);
    } catch (error) {
      throw new LineError((error as Error).message, `probabilities.${name}`);
    }
    probabilities[name] = value;
  }
  return { step, output, tests: { passed: testsRecord.passed, failed, ran }, probabilities, line };
}

function asObject(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new LineError(`must be a JSON object, got ${describeValue(value)}`, field === 'the line' ? undefined : field);
  }
  return value as Record<string, unknown>;
}

function asString(value: unknown, field: string): string {
  if (typeof value !== 'string') throw new LineError(`must be a string, got ${describeValue(value)}`, field);
  return value;
}

function asStringArray(value: unknown, field: string): string[] {
  if (!Array.isArray(value)) throw new LineError(`must be an array of strings, got ${describeValue(value)}`, field);
  return value.map((item, index) => asString(item, `${field}[${index}]`));
}
