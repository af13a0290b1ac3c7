import { describeValue } from '../core/describe-value.js';
import { EvidenceError, type ReportFormat } from './evidence-error.js';
import { describeJsonSyntaxError } from '../input/json-syntax-error.js';
import { addFailure, createTally, finishTally, type ReportEvidence } from './report-evidence.js';

/** How a runner with a jest-compatible JSON report names its tests. */
export interface JestShapedDialect {
  readonly format: Extract<ReportFormat, 'vitest-json' | 'jest-json'>;
  /** Between the file, the describe blocks and the test title. */
  readonly separator: string;
}

const RAN = new Set(['passed', 'failed']);
const NOT_RUN = new Set(['skipped', 'pending', 'todo', 'disabled', 'focused']);

/** The largest report text read, in characters. */
export const MAX_JSON_REPORT_CHARS = 512 * 1024 * 1024;

/**
 * Reads the JSON report shape shared by jest (`--json`) and vitest
 * (`--reporter=json`): `testResults[]` per file, `assertionResults[]` per
 * test. A file that failed without a failing test (it could not load) counts
 * as one failed test named after the file.
 */
export function readJestShapedReport(input: unknown, dialect: JestShapedDialect): ReportEvidence {
  const report = parseInput(input, dialect.format);
  const fail = (path: string, message: string): never => {
    throw new EvidenceError('shape', dialect.format, message, { path });
  };
  if (typeof report !== 'object' || report === null || Array.isArray(report)) {
    fail('$', `expected a JSON object with testResults, got ${describeValue(report)}`);
  }
  const root = report as Record<string, unknown>;
  const files = root['testResults'];
  if (!Array.isArray(files)) fail('testResults', `expected an array of test files, got ${describeValue(files)}`);
  const fileList = files as unknown[];

  const fileNames = fileList.map((file, index) => {
    if (typeof file !== 'object' || file === null || Array.isArray(file)) {
      fail(`testResults[${index}]`, `expected an object, got ${describeValue(file)}`);
    }
    const name = (file as Record<string, unknown>)['name'];
    if (typeof name !== 'string') fail(`testResults[${index}].name`, `expected the test file path, got ${describeValue(name)}`);
    return name as string;
  });
  const base = commonDirectory(fileNames);

  const tally = createTally();
  const seen = new Set<string>();
  let firstStart = Number.POSITIVE_INFINITY;
  let lastEnd = Number.NEGATIVE_INFINITY;
  for (const [index, value] of fileList.entries()) {
    const file = value as Record<string, unknown>;
    const where = `testResults[${index}]`;
    const fileName = relativeName(fileNames[index] ?? '', base);
    const assertions = file['assertionResults'] ?? [];
    if (!Array.isArray(assertions)) fail(`${where}.assertionResults`, `expected an array of tests, got ${describeValue(assertions)}`);
    let failedHere = 0;
    for (const [position, test] of (assertions as unknown[]).entries()) {
      const at = `${where}.assertionResults[${position}]`;
      if (typeof test !== 'object' || test === null || Array.isArray(test)) fail(at, `expected an object, got ${describeValue(test)}`);
      const entry = test as Record<string, unknown>;
      const status = entry['status'];
      if (typeof status !== 'string' || (!RAN.has(status) && !NOT_RUN.has(status))) {
        fail(`${at}.status`, `expected passed, failed, skipped, pending, todo or disabled, got ${describeValue(status)}`);
      }
      if (NOT_RUN.has(status as string)) {
        tally.skipped += 1;
        continue;
      }
      tally.ran += 1;
      if (status !== 'failed') continue;
      failedHere += 1;
      const title = entry['title'];
      if (typeof title !== 'string') fail(`${at}.title`, `expected the test title, got ${describeValue(title)}`);
      const ancestors = entry['ancestorTitles'] ?? [];
      if (!Array.isArray(ancestors) || ancestors.some((part) => typeof part !== 'string')) {
        fail(`${at}.ancestorTitles`, `expected an array of describe titles, got ${describeValue(ancestors)}`);
      }
      const messages = entry['failureMessages'] ?? [];
      if (!Array.isArray(messages)) fail(`${at}.failureMessages`, `expected an array of messages, got ${describeValue(messages)}`);
      const message = (messages as unknown[]).filter((part): part is string => typeof part === 'string').join('\n');
      const name = [fileName, ...(ancestors as string[]), title as string].filter((part) => part !== '').join(dialect.separator);
      addFailure(tally, name, stripAnsi(message), seen);
    }
    if (file['status'] === 'failed' && failedHere === 0) {
      tally.ran += 1;
      const message = typeof file['message'] === 'string' ? file['message'] : '';
      addFailure(tally, fileName === '' ? '(test file)' : fileName, stripAnsi(message), seen);
    }
    const start = file['startTime'];
    const end = file['endTime'];
    if (typeof start === 'number' && Number.isFinite(start)) firstStart = Math.min(firstStart, start);
    if (typeof end === 'number' && Number.isFinite(end)) lastEnd = Math.max(lastEnd, end);
  }
  const start = typeof root['startTime'] === 'number' ? root['startTime'] : firstStart;
  if (Number.isFinite(start) && Number.isFinite(lastEnd) && lastEnd >= start) tally.durationMs = lastEnd - start;
  if (root['success'] === false && tally.failures.length === 0 && tally.ran > 0) {
    tally.reason = 'incomplete';
    tally.detail = 'the report says the run did not succeed (success: false) although no test failed';
  }
  return finishTally(tally);
}

function parseInput(input: unknown, format: ReportFormat): unknown {
  if (typeof input !== 'string') return input;
  if (input.length > MAX_JSON_REPORT_CHARS) {
    throw new EvidenceError('shape', format, `the report is larger than ${MAX_JSON_REPORT_CHARS} characters`);
  }
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (text.trim() === '') throw new EvidenceError('empty', format, 'the report is empty');
  try {
    return JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    const { offset, line, column } = describeJsonSyntaxError(text, error);
    const truncated = /Unexpected end of JSON input|Unterminated string/.test(detail) || offset === text.length;
    const location = line === undefined || column === undefined ? {} : { line, column };
    throw new EvidenceError(truncated ? 'truncated' : 'syntax', format, `not valid JSON: ${detail}`, location, { cause: error });
  }
}

function commonDirectory(paths: readonly string[]): string {
  const dirs = paths.map((path) => path.split(/[\\/]/).slice(0, -1));
  const first = dirs[0];
  if (first === undefined) return '';
  let length = first.length;
  for (const dir of dirs) {
    let same = 0;
    while (same < length && same < dir.length && dir[same] === first[same]) same += 1;
    length = same;
  }
  return length === 0 ? '' : `${first.slice(0, length).join('/')}/`;
}

function relativeName(path: string, base: string): string {
  const normal = path.replace(/\\/g, '/');
  return base !== '' && normal.startsWith(base) ? normal.slice(base.length) : normal;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}
