// The hook's own way to run the tests until the shared test runner of
// `stopwise/evidence` is wired in: it spawns the configured command, reads the
// exit code and the top-level TAP test points on stdout, and kills the whole
// process tree at the timeout. Internal: not exported from `stopwise/hosts`.
import { spawn } from 'node:child_process';
import type { TestEvidence } from '../core/test-evidence.js';
import type { HookTestResult, HookTestRunner } from './hook-test-runner.js';
import type { TestCommandConfig } from './stopwise-config.js';

const TAIL_BYTES = 4096;

/** Runs the configured test command as a child process; no evidence is reused. */
export const commandTestRunner: HookTestRunner = {
  run(tests, options) {
    return runTestCommand(tests, options.cwd, options.env);
  },
};

function runTestCommand(tests: TestCommandConfig, cwd: string, env: NodeJS.ProcessEnv): Promise<HookTestResult> {
  const { NODE_TEST_CONTEXT: _dropped, ...childEnv } = env;
  return new Promise((resolve) => {
    const started = Date.now();
    const child =
      tests.args === undefined
        ? spawn(tests.command, { cwd, env: childEnv, shell: true, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
        : spawn(tests.command, [...tests.args], { cwd, env: childEnv, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const tap = new TapCounter();
    let tail = '';
    let timedOut = false;
    let spawnError: Error | undefined;
    const keepTail = (chunk: string) => {
      tail = (tail + chunk).slice(-TAIL_BYTES);
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      tap.push(chunk);
      keepTail(chunk);
    });
    child.stderr.setEncoding('utf8').on('data', keepTail);
    const timer = setTimeout(() => {
      timedOut = true;
      killTree(child.pid);
    }, tests.timeoutMs);
    child.on('error', (error) => {
      spawnError = error;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      killTree(child.pid);
      if (timedOut) {
        resolve({ outcome: 'timeout', timeoutMs: tests.timeoutMs });
        return;
      }
      const durationMs = Date.now() - started;
      const counted = tap.finish();
      const command = [tests.command, ...(tests.args ?? [])].join(' ');
      const base = { durationMs, command, finishedAt: new Date().toISOString() };
      if (spawnError !== undefined) {
        resolve({
          outcome: 'ran',
          evidence: { passed: false, failed: [], ran: 0, ...base },
          reason: `the test command could not start: ${spawnError.message}`,
        });
        return;
      }
      const exit = signal === null ? `exited with code ${code}` : `was killed by ${signal}`;
      const problem =
        counted.problem ?? (code === 0 || counted.failed.length > 0 ? undefined : `the test command ${exit} outside any failed test${lastLines(tail)}`);
      const evidence: TestEvidence = {
        passed: counted.ran > 0 && counted.failed.length === 0 && problem === undefined,
        failed: counted.failed,
        ran: counted.ran,
        skipped: counted.skipped,
        ...base,
      };
      resolve(problem === undefined ? { outcome: 'ran', evidence } : { outcome: 'ran', evidence, reason: problem });
    });
  });
}

function killTree(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function lastLines(text: string): string {
  const lines = text.trim().split('\n').slice(-3).join(' | ').trim();
  return lines === '' ? '' : ` (last output: ${lines.slice(-400)})`;
}

/** Counts the top-level TAP test points of a stream, line by line, without keeping the stream. */
class TapCounter {
  private rest = '';
  private plan: number | undefined;
  private bailOut: string | undefined;
  ran = 0;
  skipped = 0;
  readonly failed: string[] = [];

  push(chunk: string): void {
    const text = this.rest + chunk;
    const lines = text.split('\n');
    this.rest = lines.pop() ?? '';
    if (this.rest.length > 65_536) this.rest = '';
    for (const line of lines) this.line(line.replace(/\r$/, ''));
  }

  finish(): { ran: number; skipped: number; failed: string[]; problem?: string } {
    if (this.rest !== '') this.line(this.rest);
    const counted = { ran: this.ran, skipped: this.skipped, failed: this.failed };
    if (this.bailOut !== undefined) return { ...counted, problem: `the test run bailed out${this.bailOut === '' ? '' : `: ${this.bailOut}`}` };
    const points = this.ran + this.skipped;
    if (this.plan !== undefined && points > 0 && this.plan !== points) {
      return { ...counted, problem: `the test run was incomplete: the plan announced ${this.plan} tests, ${points} reported` };
    }
    return counted;
  }

  private line(line: string): void {
    const bail = /^Bail out!\s*(.*)$/.exec(line);
    if (bail !== null) {
      this.bailOut = bail[1]?.trim() ?? '';
      return;
    }
    const plan = /^1\.\.(\d+)/.exec(line);
    if (plan !== null) {
      this.plan = Number(plan[1]);
      return;
    }
    const point = /^(not )?ok\b(?:\s+\d+)?(?:\s*-)?\s*(.*)$/.exec(line);
    if (point === null) return;
    const failed = point[1] !== undefined;
    const [description = '', directive = ''] = (point[2] ?? '').split(/\s#\s?/, 2);
    const kind = /^(skip|todo)\b/i.exec(directive.trim())?.[1]?.toLowerCase();
    if (kind !== undefined) {
      this.skipped++;
      return;
    }
    this.ran++;
    if (failed) this.failed.push(description.trim() === '' ? `test ${this.ran}` : description.trim());
  }
}
