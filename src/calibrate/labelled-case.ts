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

/** Why a labelled-case file could not be read, and where (line and field). */
export type LabelledCaseError = LineError;

/** The result of {@link parseLabelledCases}: the cases and the 1-based line each came from. */
export type LabelledCasesResult =
  | { readonly ok: true; readonly cases: readonly LabelledCase[]; readonly lines: readonly number[] }
  | { readonly ok: false; readonly error: LabelledCaseError };

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
  const cases: LabelledCase[] = [];
  const lines: number[] = [];
  const error = forEachJsonLine(text, source, (value, line) => {
    cases.push(readCase(value));
    lines.push(line);
  });
  if (error !== undefined) return { ok: false, error };
  if (cases.length === 0) return { ok: false, error: lineError(source, undefined, undefined, 'the file holds no cases') };
  return { ok: true, cases, lines };
}

/** Formats an error as `source:line: field: message`. */
export function formatLabelledCaseError(error: LabelledCaseError): string {
  return formatLineError(error);
}

/** True when the case carries the decision model's probabilities. */
export function isScoredCase(labelled: LabelledCase): labelled is ScoredCase {
  return labelled.probabilities !== undefined;
}

function readCase(value: unknown): LabelledCase {
  const record = readObject(value, undefined);
  if (!('label' in record)) throw new LineFieldError('is missing; expected "done" or "not_done"', 'label');
  if (record.label !== 'done' && record.label !== 'not_done') {
    throw new LineFieldError(`must be "done" or "not_done", got ${describeValue(record.label)}`, 'label');
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
    else out.id = readString(record.id, 'id');
  }
  if (record.taskType !== undefined) {
    const taskType = readString(record.taskType, 'taskType');
    if (taskType.trim() === '') throw new LineFieldError('must not be empty', 'taskType');
    out.taskType = taskType;
  }
  if (record.tests !== undefined) out.tests = readTests(record.tests);
  if (record.task !== undefined) out.task = readString(record.task, 'task');
  if (record.output !== undefined) out.output = readString(record.output, 'output');
  if (record.acceptance !== undefined) out.acceptance = readStringArray(record.acceptance, 'acceptance');
  if (record.probabilities !== undefined) {
    out.probabilities = readProbabilities(record.probabilities, 'probabilities');
  } else if (out.task === undefined || out.output === undefined) {
    throw new LineFieldError(
      'is missing; a case needs the decision model\'s probabilities, or "task" and "output" to be scored by a decision model',
      'probabilities',
    );
  }
  return out;
}

function readTests(value: unknown): CaseTests {
  const tests = readObject(value, 'tests');
  if (typeof tests.passed !== 'boolean') {
    throw new LineFieldError(`must be a boolean, got ${describeValue(tests.passed)}`, 'tests.passed');
  }
  const ran = tests.ran;
  if (typeof ran !== 'number' || !Number.isInteger(ran) || ran < 0) {
    throw new LineFieldError(`must be a non-negative integer, got ${describeValue(ran)}`, 'tests.ran');
  }
  return { passed: tests.passed, failed: readStringArray(tests.failed, 'tests.failed'), ran };
}
