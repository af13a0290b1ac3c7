import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { Readable } from 'node:stream';
import { commandCheckResult, lastLine } from './check-command.js';
import { EvidenceError, isEvidenceError, type ReportFormat } from './evidence-error.js';
import { evidenceFromChecks } from './evidence-from-checks.js';
import { MAX_JSON_REPORT_CHARS } from './jest-shaped-report.js';
import { readJestJson } from './read-jest-json.js';
import { readVitestJson } from './read-vitest-json.js';
import { addFailure, createTally, finishTally, type EvidenceReason, type ReportEvidence } from './report-evidence.js';
import { readPlainTap } from './read-plain-tap.js';
import { readTestSummary, type TestSummary } from './read-test-summary.js';
import { ReportDecoder, isStreamSource, readWholeReport, type ReportSource } from './report-source.js';
import { describeCommand, runProcess, type ProcessOptions, type ProcessRun } from './run-process.js';
import { fingerprintWorkingTree } from './tree-fingerprint.js';
import { formatDuration } from '../core/format-duration.js';

/**
 * Where `runTests` finds the report: `path` (relative to `cwd`) when given,
 * stdout otherwise. `format: 'exit-code'` reads no report at all: the exit
 * code is the only evidence (weaker: no test names, and a command that runs no
 * test passes), folded like `evidenceFromChecks` into one check named after
 * the command.
 */
export type TestReportOptions =
  | { readonly format: ReportFormat; readonly path?: string }
  | { readonly format: 'exit-code'; readonly path?: undefined };

/**
 * Options of {@link runTests}: how to start the command (the command comes
 * from the caller's configuration, never from an agent's output), and the
 * report to read. `cwd` is also the tree the evidence is about; past
 * `timeoutMs` the run fails with reason `timeout`.
 */
export interface RunTestsOptions extends ProcessOptions {
  /** The report to read; without it, TAP on stdout is tried and the exit code decides; `'exit-code'` reads none. */
  readonly report?: TestReportOptions;
}

/** The evidence of one test run, with how the command ended. */
export interface TestRunResult extends ReportEvidence {
  /** The command as run, for people. */
  readonly command: string;
  /** The exit code, or null when the command was killed by a signal or never started. */
  readonly exitCode: number | null;
  /** The signal that ended the command, if any. */
  readonly signal?: string;
  /** Wall-clock time of the command in milliseconds. */
  readonly durationMs: number;
  /** When the command ended (ISO 8601). */
  readonly finishedAt: string;
  /** The last `outputTailBytes` of stdout and stderr, interleaved as they arrived. */
  readonly output: string;
  /** True when `output` lost earlier output. */
  readonly outputTruncated: boolean;
  /** The working tree the run ended on; see `isEvidenceFresh`. Absent when it could not be read. */
  readonly treeFingerprint?: string;
}

const FORMATS: ReadonlySet<string> = new Set(['junit', 'tap', 'vitest-json', 'jest-json', 'exit-code']);

/**
 * Runs the project's test command as a child process and returns its
 * evidence. Rules: a non-zero exit while the report shows no failing test
 * fails the run (`reason: 'failed_outside_tests'`); exit 0 with no test found
 * is `ran: 0`, not a pass; past `timeoutMs` the whole process tree is killed
 * and the run fails (`reason: 'timeout'`); a report that is missing, stale or
 * unreadable fails it (`reason: 'report_unreadable'`). The result records the
 * working-tree fingerprint for `isEvidenceFresh`.
 *
 * @example
 * const result = await runTests({
 *   command: 'npx', args: ['vitest', 'run', '--reporter=junit', '--outputFile=junit.xml'],
 *   cwd: projectDir, timeoutMs: 300_000, report: { format: 'junit', path: 'junit.xml' },
 * });
 * result.passed; result.failed; result.reason;
 */
export async function runTests(options: RunTestsOptions): Promise<TestRunResult> {
  assertRunTestsOptions(options);
  const report = options.report;
  const exitCodeOnly = report?.format === 'exit-code';
  const reportPath = report?.path === undefined ? undefined : isAbsolute(report.path) ? report.path : join(options.cwd, report.path);
  const before = reportPath === undefined ? undefined : await fileStamp(reportPath);
  const fromStdout = reportPath !== undefined || report?.format === 'exit-code' ? undefined : (report?.format ?? 'tap');

  const { run, consumed } = await runProcess(
    options,
    fromStdout === undefined ? undefined : (stdout: Readable) => readReport(fromStdout, stdout, true),
  );

  let evidence: ReportEvidence;
  // The closing summary is read once, and only for exit-code runs.
  const summary = exitCodeOnly && !run.timedOut ? readTestSummary(run.output) : undefined;
  if (run.spawnError !== undefined) {
    evidence = withReason(emptyEvidence(), 'spawn_failed', `the command could not start: ${run.spawnError.message}`);
  } else if (exitCodeOnly) {
    evidence = exitCodeEvidence(describeCommand(options.command, options.args), run, options.timeoutMs, summary);
  } else if (reportPath !== undefined && report !== undefined) {
    evidence = await readReportFile(report.format, reportPath, before);
  } else if (consumed === undefined) {
    evidence = emptyEvidence();
  } else if (consumed.status === 'fulfilled') {
    evidence = consumed.value;
  } else if (report === undefined && isEvidenceError(consumed.reason) && consumed.reason.kind === 'empty') {
    evidence = emptyEvidence();
  } else {
    evidence = withReason(emptyEvidence(), 'report_unreadable', `the ${fromStdout ?? 'tap'} report on stdout could not be read: ${describeError(consumed.reason)}`);
  }
  // Whether the command ever got to its tests is asked only of a run in which no test was seen (a red run reads no package.json).
  const noTestSeen = exitCodeOnly ? summary === undefined : evidence.failed.length === 0 && evidence.ran === 0;
  if (run.spawnError === undefined && noTestSeen) {
    const notStarted = notStartedDetail(run) ?? (await missingNpmScript(options, run));
    if (notStarted !== undefined) evidence = withReason(emptyEvidence(), 'spawn_failed', notStarted);
  }
  evidence = applyExitRules(evidence, run, options.timeoutMs);

  const treeFingerprint = await fingerprintWorkingTree(options.cwd).catch(() => undefined);
  return {
    ...evidence,
    command: describeCommand(options.command, options.args),
    exitCode: run.exitCode,
    ...(run.signal === null ? {} : { signal: run.signal }),
    durationMs: Math.round(run.durationMs),
    finishedAt: run.finishedAt.toISOString(),
    output: run.output,
    outputTruncated: run.outputTruncated,
    ...(treeFingerprint === undefined ? {} : { treeFingerprint }),
  };
}

/**
 * The evidence of an exit-code run: one check named after the command, and
 * the test counts of the runner's closing summary when its output has one
 * (`readTestSummary`). A summary that says no test ran makes it `ran: 0`
 * whatever the exit code; the exit code and the summary must both say pass.
 * An output without a summary it can read keeps the one check alone; a zero
 * read from an output that lost its beginning (a sum over packages may have
 * lost some) counts no test, so it is never a pass.
 */
function exitCodeEvidence(name: string, run: ProcessRun, timeoutMs: number, summary: TestSummary | undefined): ReportEvidence {
  const check = commandCheckResult(name, run, timeoutMs);
  if (summary === undefined) return evidenceFromChecks([check]);
  if (summary.ran === 0 && run.outputTruncated) {
    // A sum over packages may have lost the ones that ran: not a count to trust, and never a pass.
    if (!check.ok) return evidenceFromChecks([check]);
    return withReason(
      finishTally(createTally()),
      'incomplete',
      'the closing summary says no test ran, and the captured output lost its beginning, so earlier test counts may be missing; no test is counted',
    );
  }
  const tally = createTally();
  tally.ran = summary.ran;
  tally.skipped = summary.skipped;
  if (summary.ran === 0) return finishTally(tally);
  const runner = summary.runners.join(' and ');
  if (summary.failed > 0) {
    const says = `the ${runner} summary says ${summary.failed} of ${summary.ran} tests failed`;
    addFailure(tally, `check:${name}`, check.ok ? `exit code 0, but ${says}` : `${check.detail}; ${says}`, new Set());
  } else if (!check.ok) {
    addFailure(tally, `check:${name}`, `${check.detail}, although the ${runner} summary says all ${summary.ran} tests passed`, new Set());
  }
  return finishTally(tally);
}

/** npm's line for a script the package does not have (npm 7 and later: `npm error`; older: `npm ERR!`). */
const NPM_MISSING_SCRIPT = /^npm (?:error|ERR!) Missing script: "([^"\n]+)"/m;

/**
 * Why a command that ran never got to its tests, if it plainly did not: a
 * shell's 127 (no such command) or 126 (found but not executable), or npm
 * asked for a script the package does not have.
 */
function notStartedDetail(run: ProcessRun): string | undefined {
  if (run.timedOut || run.exitCode === null || run.exitCode === 0) return undefined;
  const script = NPM_MISSING_SCRIPT.exec(run.output);
  if (script !== null) return `npm has no "${script[1]}" script`;
  const last = lastLine(run.output);
  if (run.exitCode === 127) return `exit code 127: the shell found no such command${last === '' ? '' : `: ${last}`}`;
  if (run.exitCode === 126) return `exit code 126: the shell could not execute it${last === '' ? '' : `: ${last}`}`;
  return undefined;
}

/**
 * The script an `npm test` / `npm run <name>` command asked for when the
 * project's `package.json` does not have it (with `--silent`, npm exits 1
 * and says nothing).
 */
async function missingNpmScript(options: RunTestsOptions, run: ProcessRun): Promise<string | undefined> {
  if (run.timedOut || run.exitCode === null || run.exitCode === 0) return undefined;
  const words = options.args === undefined ? (/[|&;<>()`$\n]/.test(options.command) ? [] : options.command.trim().split(/\s+/)) : [options.command, ...options.args];
  if (words[0] !== 'npm') return undefined;
  const rest = words.slice(1).filter((word) => !word.startsWith('-'));
  const script = ['test', 't', 'tst'].includes(rest[0] ?? '') ? 'test' : ['run', 'run-script', 'rum', 'urn'].includes(rest[0] ?? '') ? rest[1] : undefined;
  if (script === undefined) return undefined;
  let manifest: unknown;
  try {
    manifest = JSON.parse(await readFile(join(options.cwd, 'package.json'), 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof manifest !== 'object' || manifest === null) return undefined;
  const scripts = (manifest as { scripts?: unknown }).scripts;
  const has = typeof scripts === 'object' && scripts !== null && typeof (scripts as Record<string, unknown>)[script] === 'string';
  return has ? undefined : `npm has no "${script}" script`;
}


function applyExitRules(evidence: ReportEvidence, run: ProcessRun, timeoutMs: number): ReportEvidence {
  if (run.spawnError !== undefined || evidence.reason === 'spawn_failed') return evidence;
  if (run.timedOut) return withReason(evidence, 'timeout', `the command did not finish within ${formatDuration(timeoutMs)}; its process tree was killed`);
  const exitedBadly = run.exitCode !== 0;
  if (exitedBadly && evidence.failed.length === 0 && (evidence.reason === undefined || evidence.reason === 'report_unreadable')) {
    const how = run.exitCode === null ? `was ended by ${run.signal ?? 'a signal'}` : `exited with code ${run.exitCode}`;
    return withReason(
      evidence,
      'failed_outside_tests',
      evidence.reason === 'report_unreadable'
        ? `the command ${how} without a readable report: it failed outside any test (a crash, a compile error); ${evidence.detail ?? ''}`
        : `the command ${how} while the report shows no failing test: it failed outside any test (a crash, a compile error, a failing hook)`,
    );
  }
  return evidence;
}

function withReason(evidence: ReportEvidence, reason: EvidenceReason, detail: string): ReportEvidence {
  return { ...evidence, passed: false, reason, detail };
}

function emptyEvidence(): ReportEvidence {
  return finishTally(createTally());
}

// The XML and TAP readers load their parsers (saxes, tap-parser) only when a run needs them: a stop hook
// that reads TAP does not pay for the XML one at every agent turn.
async function readReport(format: ReportFormat, source: ReportSource, fromStdout: boolean): Promise<ReportEvidence> {
  switch (format) {
    case 'junit': {
      const { readJUnitXml } = await import('./read-junit-xml.js');
      return readJUnitXml(source, { skipSurroundingText: fromStdout });
    }
    case 'tap':
      return readTapReport(source);
    case 'vitest-json':
    case 'jest-json': {
      const text = await readWholeReport(source, MAX_JSON_REPORT_CHARS);
      if (typeof text !== 'string') throw new EvidenceError('shape', format, `the report is larger than ${MAX_JSON_REPORT_CHARS} characters`);
      const json = fromStdout ? jsonPart(text) : text;
      return format === 'vitest-json' ? readVitestJson(json) : readJestJson(json);
    }
    default:
      throw new TypeError(`unknown report format ${String(format)}`);
  }
}

/** Bytes of TAP read whole for `readPlainTap` before the TAP parser is loaded. */
const PLAIN_TAP_MAX_BYTES = 64 * 1024;

/**
 * `readTap`, except that a short report that is only passing test points is
 * read by `readPlainTap`, without loading tap-parser: a stop hook's test run
 * does not pay for the parser when there is nothing for it to parse.
 */
async function readTapReport(source: ReportSource): Promise<ReportEvidence> {
  const head: (string | Uint8Array)[] = [];
  let rest: AsyncIterator<string | Uint8Array> | undefined;
  if (isStreamSource(source)) {
    rest = source[Symbol.asyncIterator]();
    for (let size = 0; size <= PLAIN_TAP_MAX_BYTES; ) {
      const next = await rest.next();
      if (next.done === true) {
        rest = undefined;
        break;
      }
      head.push(next.value);
      size += next.value.length;
    }
  } else {
    head.push(source);
  }
  if (rest === undefined) {
    const decoder = new ReportDecoder();
    const plain = readPlainTap(head.map((chunk) => decoder.decode(chunk)).join('') + decoder.end());
    if (plain !== undefined) return plain;
  }
  const { readTap } = await import('./read-tap.js');
  return readTap(isStreamSource(source) ? resumeStream(head, rest) : source);
}

/** The chunks already read, then the rest of the stream; stopping early stops the stream. */
async function* resumeStream(
  head: readonly (string | Uint8Array)[],
  rest: AsyncIterator<string | Uint8Array> | undefined,
): AsyncGenerator<string | Uint8Array, void, undefined> {
  try {
    yield* head;
    if (rest === undefined) return;
    for (let next = await rest.next(); next.done !== true; next = await rest.next()) yield next.value;
  } finally {
    await rest?.return?.();
  }
}

/** The JSON object in output that may have other lines around it (an npm script header, a summary). */
function jsonPart(text: string): string {
  const start = /^\{/m.exec(text);
  const end = text.lastIndexOf('}');
  if (start === null || end < start.index) return text;
  return text.slice(start.index, end + 1);
}

interface FileStamp {
  readonly mtimeMs: number;
  readonly size: number;
  readonly ino: number;
}

async function fileStamp(path: string): Promise<FileStamp | undefined> {
  try {
    const info = await stat(path);
    return { mtimeMs: info.mtimeMs, size: info.size, ino: info.ino };
  } catch {
    return undefined;
  }
}

async function readReportFile(format: ReportFormat, path: string, before: FileStamp | undefined): Promise<ReportEvidence> {
  const after = await fileStamp(path);
  if (after === undefined) return withReason(emptyEvidence(), 'report_unreadable', `the report file ${path} was not written`);
  if (before !== undefined && before.mtimeMs === after.mtimeMs && before.size === after.size && before.ino === after.ino) {
    return withReason(emptyEvidence(), 'report_unreadable', `the report file ${path} was not rewritten by this run (it is left from an earlier one)`);
  }
  try {
    if (format === 'junit' || format === 'tap') return await readReport(format, createReadStream(path), false);
    return await readReport(format, await readFile(path, 'utf8'), false);
  } catch (error) {
    const described = isEvidenceError(error) ? error.withFile(path).message : describeError(error);
    return withReason(emptyEvidence(), 'report_unreadable', `the report could not be read: ${described}`);
  }
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function assertRunTestsOptions(options: RunTestsOptions): void {
  if (typeof options !== 'object' || options === null) throw new TypeError('runTests needs an options object { command, cwd, timeoutMs }');
  if (typeof options.command !== 'string' || options.command.trim() === '') throw new TypeError('runTests: command must be a non-empty string');
  if (options.args !== undefined && (!Array.isArray(options.args) || options.args.some((arg) => typeof arg !== 'string'))) {
    throw new TypeError('runTests: args must be an array of strings');
  }
  if (typeof options.cwd !== 'string' || options.cwd === '') throw new TypeError('runTests: cwd must be a folder path');
  if (typeof options.timeoutMs !== 'number' || !Number.isFinite(options.timeoutMs) || options.timeoutMs <= 0) {
    throw new TypeError('runTests: timeoutMs must be a positive number of milliseconds');
  }
  const report = options.report;
  if (report !== undefined) {
    if (typeof report !== 'object' || report === null || !FORMATS.has(report.format)) {
      throw new TypeError("runTests: report.format must be 'junit', 'tap', 'vitest-json', 'jest-json' or 'exit-code'");
    }
    if (report.path !== undefined && (typeof report.path !== 'string' || report.path === '')) {
      throw new TypeError('runTests: report.path must be a file path');
    }
    if (report.format === 'exit-code' && report.path !== undefined) {
      throw new TypeError("runTests: report.path has no use with report.format 'exit-code' (no report is read)");
    }
  }
}
