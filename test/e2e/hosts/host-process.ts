import { spawn } from 'node:child_process';

/** How a host process ended and what it printed. */
export interface HostRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** True when it outlived its timeout and was killed. */
  readonly timedOut: boolean;
}

/** The process groups of the runs still going, killed by {@link killHostProcesses}. */
const running = new Set<number>();

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is gone already
  }
}

/**
 * Runs a command in a process group of its own, with stdin closed, until it
 * exits (or `timeoutMs` passes: then the whole group is killed). Whatever the
 * host left running in its group (a shell, a hook) is killed once it exits.
 */
export function runHostProcess(command: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<HostRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const pid = child.pid;
    if (pid !== undefined) running.add(pid);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      if (pid !== undefined) killGroup(pid);
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      if (pid !== undefined) running.delete(pid);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (pid !== undefined) {
        killGroup(pid);
        running.delete(pid);
      }
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
}

/** Kills every host process group still running (a test that failed before its host exited). */
export function killHostProcesses(): void {
  for (const pid of running) killGroup(pid);
  running.clear();
}
