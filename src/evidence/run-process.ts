import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import { OutputTail } from './output-tail.js';

/** How to start a command. It comes from the caller's configuration, never from an agent's output. */
export interface ProcessOptions {
  /** The program to run; with no `args`, a command line run by the shell (`/bin/sh -c`, `cmd.exe` on Windows). */
  readonly command: string;
  /** Arguments: the program is started directly, without a shell. */
  readonly args?: readonly string[];
  /** The folder to run in. */
  readonly cwd: string;
  /** Added to the parent's environment (`undefined` removes a variable); `NODE_TEST_CONTEXT` is always removed. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** After this many milliseconds the whole process tree is killed. */
  readonly timeoutMs: number;
  /** Bytes of output kept (the last ones), 8 KiB by default. */
  readonly outputTailBytes?: number;
  /** Milliseconds between SIGTERM and SIGKILL when the process tree is stopped, 2000 by default. */
  readonly killGraceMs?: number;
}

/** How a command ended. */
export interface ProcessRun {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly spawnError?: Error;
  readonly output: string;
  readonly outputTruncated: boolean;
  readonly durationMs: number;
  readonly finishedAt: Date;
}

/** Bytes of combined stdout and stderr kept by default. */
export const DEFAULT_OUTPUT_TAIL_BYTES = 8 * 1024;
/** Milliseconds between SIGTERM and SIGKILL when a process group is stopped. */
export const DEFAULT_KILL_GRACE_MS = 2000;

const activeGroups = new Set<number>();
let exitHookInstalled = false;

/**
 * Runs a command in its own process group (a shell when `args` is absent),
 * keeps a bounded tail of its output, hands stdout to `consumeStdout` as a
 * stream, and on timeout kills the whole group: SIGTERM, then SIGKILL after
 * `killGraceMs`. When the command exits, what is left of its group is
 * stopped too, so no process outlives the run.
 */
export async function runProcess<T>(
  options: ProcessOptions,
  consumeStdout?: (stdout: Readable) => Promise<T>,
): Promise<{ run: ProcessRun; consumed?: PromiseSettledResult<T> }> {
  const started = performance.now();
  const tail = new OutputTail(options.outputTailBytes ?? DEFAULT_OUTPUT_TAIL_BYTES);
  const grace = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  let child: ChildProcess;
  try {
    child = spawn(options.command, options.args === undefined ? [] : [...options.args], {
      cwd: options.cwd,
      env: childEnvironment(options.env),
      shell: options.args === undefined,
      detached: process.platform !== 'win32',
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
  } catch (error) {
    return { run: failedToStart(error, started, tail) };
  }

  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const reader = new PassThrough();
  const consumed = consumeStdout === undefined ? undefined : settle(consumeStdout(reader));
  const stdout = child.stdout;
  const stderr = child.stderr;
  stdout?.on('data', (chunk: Buffer) => tail.push(chunk));
  stderr?.on('data', (chunk: Buffer) => tail.push(chunk));
  if (stdout !== null && consumeStdout !== undefined) {
    stdout.pipe(reader);
    void consumed?.then((result) => {
      if (result.status === 'rejected') {
        stdout.unpipe(reader);
        reader.resume();
        stdout.resume();
      }
    });
  } else {
    reader.end();
  }

  const pid = child.pid;
  if (pid !== undefined && process.platform !== 'win32') track(pid);
  let timedOut = false;
  let spawnError: Error | undefined;
  let killTimer: NodeJS.Timeout | undefined;
  const timer = setTimeout(() => {
    timedOut = true;
    stopGroup(child, 'SIGTERM');
    killTimer = setTimeout(() => stopGroup(child, 'SIGKILL'), grace);
  }, options.timeoutMs);

  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('error', (error) => {
      spawnError = error;
      resolve({ code: null, signal: null });
    });
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  clearTimeout(timer);
  if (spawnError === undefined) {
    stopGroup(child, 'SIGTERM');
    if (!(await within(closed, grace))) {
      stopGroup(child, 'SIGKILL');
      stdout?.destroy();
      stderr?.destroy();
      reader.end();
    }
  }
  if (killTimer !== undefined) clearTimeout(killTimer);
  if (pid !== undefined) untrack(pid);
  const consumedResult = consumed === undefined ? undefined : await consumed;
  const run: ProcessRun = {
    exitCode: exit.code,
    signal: exit.signal,
    timedOut,
    ...(spawnError === undefined ? {} : { spawnError }),
    output: tail.text(),
    outputTruncated: tail.truncated,
    durationMs: performance.now() - started,
    finishedAt: new Date(),
  };
  return consumedResult === undefined ? { run } : { run, consumed: consumedResult };
}

/** The child's environment: the parent's, with `overrides` applied (undefined removes) and `NODE_TEST_CONTEXT` dropped. */
export function childEnvironment(overrides: Readonly<Record<string, string | undefined>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  delete env['NODE_TEST_CONTEXT'];
  return env;
}

/** The command as one line, for reports. */
export function describeCommand(command: string, args: readonly string[] | undefined): string {
  if (args === undefined) return command;
  return [command, ...args].map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replace(/'/g, `'\\''`)}'`)).join(' ');
}

function stopGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  const pid = child.pid;
  if (pid === undefined) return;
  if (process.platform === 'win32') {
    if (signal === 'SIGKILL' || child.exitCode === null) {
      spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => {});
    }
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

function within(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

function settle<T>(promise: Promise<T>): Promise<PromiseSettledResult<T>> {
  return promise.then(
    (value) => ({ status: 'fulfilled', value }) as const,
    (reason: unknown) => ({ status: 'rejected', reason }) as const,
  );
}

function failedToStart(error: unknown, started: number, tail: OutputTail): ProcessRun {
  return {
    exitCode: null,
    signal: null,
    timedOut: false,
    spawnError: error instanceof Error ? error : new Error(String(error)),
    output: tail.text(),
    outputTruncated: false,
    durationMs: performance.now() - started,
    finishedAt: new Date(),
  };
}

function track(pid: number): void {
  activeGroups.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const group of activeGroups) {
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
}

function untrack(pid: number): void {
  activeGroups.delete(pid);
}
