import { formatDuration } from '../core/format-duration.js';
import type { CheckResult } from './check-result.js';
import { trimMessage } from './report-evidence.js';
import { describeCommand, runProcess, type ProcessOptions, type ProcessRun } from './run-process.js';

/** Options of {@link checkCommand}; like `runTests`, `args` runs without a shell and no `args` runs `command` in a shell. */
export interface CheckCommandOptions extends Omit<ProcessOptions, 'outputTailBytes'> {
  /** The check's name; the command line by default. */
  readonly name?: string;
}

/**
 * Runs a command (a linter, a type check, a build) and checks that it exits
 * with code 0 within `timeoutMs`; past it the process tree is killed and the
 * check fails. The detail gives the exit code and the last line of output.
 *
 * @example
 * await checkCommand({ command: 'npx', args: ['tsc', '--noEmit'], cwd, timeoutMs: 120_000, name: 'typecheck' });
 */
export async function checkCommand(options: CheckCommandOptions): Promise<CheckResult> {
  if (typeof options.command !== 'string' || options.command.trim() === '') throw new TypeError('checkCommand: command must be a non-empty string');
  if (typeof options.timeoutMs !== 'number' || !(options.timeoutMs > 0)) throw new TypeError('checkCommand: timeoutMs must be a positive number');
  const name = options.name ?? describeCommand(options.command, options.args);
  const { run } = await runProcess({ ...options, outputTailBytes: 2048 });
  return commandCheckResult(name, run, options.timeoutMs);
}

/** The check a finished command gives: ok on exit code 0, otherwise how it ended and the last line of its output. */
export function commandCheckResult(name: string, run: ProcessRun, timeoutMs: number): CheckResult {
  const last = lastLine(run.output);
  const tail = last === '' ? '' : `: ${last}`;
  if (run.spawnError !== undefined) return { name, ok: false, detail: `could not start: ${run.spawnError.message}` };
  if (run.timedOut) return { name, ok: false, detail: `timed out after ${formatDuration(timeoutMs)}; the process tree was killed${tail}` };
  if (run.exitCode === 0) return { name, ok: true, detail: 'exit code 0' };
  const how = run.exitCode === null ? `ended by ${run.signal ?? 'a signal'}` : `exit code ${run.exitCode}`;
  return { name, ok: false, detail: `${how}${tail}` };
}

const MAX_LINE_LENGTH = 200;

/** The last non-blank line of an output, trimmed as failure messages are. */
export function lastLine(output: string): string {
  const lines = output.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');
  const line = lines[lines.length - 1] ?? '';
  return trimMessage(line, MAX_LINE_LENGTH);
}
