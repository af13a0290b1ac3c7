import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';

export const CLI = join(import.meta.dirname, '../../dist/bin/stopwise.js');

/** This process's environment without what a host or a decision model would set: a hook or doctor run sees only what a test gives it. */
export const HOOK_FREE_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  CLAUDE_PROJECT_DIR: undefined,
  CURSOR_PROJECT_DIR: undefined,
  GEMINI_PROJECT_DIR: undefined,
  CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: undefined,
  NODE_TEST_CONTEXT: undefined,
  SYSTEM_ONE_API_KEY: undefined,
  SYSTEM_ONE_BASE_URL: undefined,
  SYSTEM_ONE_MODEL: undefined,
  OPENAI_API_KEY: undefined,
};

export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  readonly cwd?: string;
  readonly input?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
}

/** Starts the built CLI as a real child process; `done` resolves when it has closed. */
export function startCli(
  args: readonly string[],
  options: CliOptions = {},
): { readonly child: ChildProcessWithoutNullStreams; readonly done: Promise<CliRun> } {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? join(import.meta.dirname, '../..'),
    env: options.env ?? { ...process.env, NODE_TEST_CONTEXT: undefined },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const done = new Promise<CliRun>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 15_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  // a child may stop reading its stdin early (the hook refuses a huge input): that is not a test failure
  child.stdin.on('error', () => undefined);
  child.stdin.end(options.input ?? '');
  return { child, done };
}

/** Runs the built CLI as a real child process. */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  return startCli(args, options).done;
}
