import { assertProbability, type CriterionProbabilities } from '../core/criterion-probabilities.js';
import { describeValue, type TestEvidence } from '../core/test-evidence.js';

/** A person's judgement of whether the agent's output really was done. */
export type CaseLabel = 'done' | 'not_done';

/** The test evidence a labelled case carries. */
export type CaseTests = Pick<TestEvidence, 'passed' | 'failed' | 'ran'>;

/**
 * One human-labelled completion check. It carries the decision model's
 * `probabilities` (P(true) per criterion), or `task` and `output` (and
 * optionally `acceptance`) for a decision model to score later. A case
 * without `tests` is judged on its probabilities alone, as if its tests had
 * passed. Plain data.
 */
export interface LabelledCase {
  readonly label: CaseLabel;
  readonly probabilities?: CriterionProbabilities;
  readonly tests?: CaseTests;
  readonly taskType?: string;
  readonly id?: string;
  readonly task?: string;
  readonly output?: string;
  readonly acceptance?: readonly string[];
}

/** A labelled case that carries the decision model's probabilities. */
export type ScoredCase = LabelledCase & { readonly probabilities: CriterionProbabilities };

/** Why a labelled-case file could not be read, and where. */
export interface LabelledCaseError {
  readonly source: string;
  /** 1-based line number; absent when the problem is the file as a whole. */
  readonly line?: number;
  /** The field that was wrong, as a dotted path. */
  readonly field?: string;
  readonly message: string;
}

/** The result of {@link parseLabelledCases}: the cases and the 1-based line each came from. */
export type LabelledCasesResult =
  | { readonly ok: true; readonly cases: readonly LabelledCase[]; readonly lines: readonly number[] }
  | { readonly ok: false; readonly error: LabelledCaseError };

class FieldError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/**
 * Reads labelled cases from JSON Lines text, one case a line:
 * `{ "probabilities": { name: p }, "tests"?: { passed, failed, ran }, "label": "done" | "not_done", "taskType"?, "id"? }`,
 * or `task`, `output` and `acceptance` in place of `probabilities`. Blank
 * lines are skipped and unknown fields ignored. Never throws on bad input: the
 * result names the line and field that were wrong.
 *
 * @example
 * const read = parseLabelledCases('{"probabilities":{"acceptanceCovered":0.9},"label":"done"}\n', 'cases.jsonl');
 * if (read.ok) read.cases[0]?.label; // 'done'
 */
export function parseLabelledCases(text: string, source = '<input>'): LabelledCasesResult {
  const rows = text.split('\n');
  const cases: LabelledCase[] = [];
  const lines: number[] = [];
  for (let index = 0; index < rows.length; index++) {
    const raw = (rows[index] ?? '').trim();
    if (raw === '') continue;
    const line = index + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return fail(source, line, undefined, `not valid JSON (${(error as Error).message})`);
    }
    try {
      cases.push(readCase(value));
      lines.push(line);
    } catch (error) {
      if (error instanceof FieldError) return fail(source, line, error.field, error.message);
      throw error;
    }
  }
  if (cases.length === 0) return fail(source, undefined, undefined, 'the file holds no cases');
  return { ok: true, cases, lines };
}

/** Formats an error as `source:line: field: message`. */
export function formatLabelledCaseError(error: LabelledCaseError): string {
  const where = error.line === undefined ? error.source : `${error.source}:${error.line}`;
  return `${where}: ${error.field === undefined ? '' : `${error.field}: `}${error.message}`;
}

/** True when the case carries the decision model's probabilities. */
export function isScoredCase(labelled: LabelledCase): labelled is ScoredCase {
  return labelled.probabilities !== undefined;
}

function fail(source: string, line: number | undefined, field: string | undefined, message: string): LabelledCasesResult {
  return {
    ok: false,
    error: { source, ...(line === undefined ? {} : { line }), ...(field === undefined ? {} : { field }), message },
  };
}

function readCase(value: unknown): LabelledCase {
  const record = asObject(value, undefined);
  if (!('label' in record)) throw new FieldError('is missing; expected "done" or "not_done"', 'label');
  if (record.label !== 'done' && record.label !== 'not_done') {
    throw new FieldError(`must be "done" or "not_done", got ${describeValue(record.label)}`, 'label');
  }
  const out: {
    label: CaseLabel;
    probabilities?: CriterionProbabilities;
    tests?: CaseTests;
    taskType?: string;
    id?: string;
    task?: string;
    output?: string;
    acceptance?: readonly string[];
  } = { label: record.label };
  if (record.id !== undefined) {
    if (typeof record.id === 'number' && Number.isFinite(record.id)) out.id = String(record.id);
    else out.id = asString(record.id, 'id');
  }
  if (record.taskType !== undefined) {
    const taskType = asString(record.taskType, 'taskType');
    if (taskType.trim() === '') throw new FieldError('must not be empty', 'taskType');
    out.taskType = taskType;
  }
  if (record.tests !== undefined) out.tests = readTests(record.tests);
  if (record.task !== undefined) out.task = asString(record.task, 'task');
  if (record.output !== undefined) out.output = asString(record.output, 'output');
  if (record.acceptance !== undefined) out.acceptance = asStringArray(record.acceptance, 'acceptance');
  if (record.probabilities !== undefined) {
    const probabilities: Record<string, number> = {};
    for (const [name, probability] of Object.entries(asObject(record.probabilities, 'probabilities'))) {
      try {
        assertProbability(name, probability);
      } catch (error) {
        throw new FieldError((error as Error).message, `probabilities.${name}`);
      }
      probabilities[name] = probability;
    }
    out.probabilities = probabilities;
  } else if (out.task === undefined || out.output === undefined) {
    throw new FieldError(
      'is missing; a case needs the decision model\'s probabilities, or "task" and "output" to be scored by a decision model',
      'probabilities',
    );
  }
  return out;
}

function readTests(value: unknown): CaseTests {
  const tests = asObject(value, 'tests');
  if (typeof tests.passed !== 'boolean') {
    throw new FieldError(`must be a boolean, got ${describeValue(tests.passed)}`, 'tests.passed');
  }
  const ran = tests.ran;
  if (typeof ran !== 'number' || !Number.isInteger(ran) || ran < 0) {
    throw new FieldError(`must be a non-negative integer, got ${describeValue(ran)}`, 'tests.ran');
  }
  return { passed: tests.passed, failed: asStringArray(tests.failed, 'tests.failed'), ran };
}

function asObject(value: unknown, field: string | undefined): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new FieldError(`must be a JSON object, got ${describeValue(value)}`, field);
  }
  return value as Record<string, unknown>;
}

function asString(value: unknown, field: string): string {
  if (typeof value !== 'string') throw new FieldError(`must be a string, got ${describeValue(value)}`, field);
  return value;
}

function asStringArray(value: unknown, field: string): string[] {
  if (!Array.isArray(value)) throw new FieldError(`must be an array of strings, got ${describeValue(value)}`, field);
  return value.map((item, index) => asString(item, `${field}[${index}]`));
}
