import { join, resolve } from 'node:path';
import { acquireFileLock, LockTimeoutError, type FileLock } from './file-lock.js';
import { guardToolEvent } from './guard-tool-event.js';
import type { HookHost } from './hook-host.js';
import { ensureStateDir } from './hook-session-store.js';
import { encodeToolGuardAnswer } from './encode-tool-guard-answer.js';
import { loadStopwiseConfig } from './load-stopwise-config.js';
import type { ToolHookInput } from './parse-tool-hook-input.js';
import { DEFAULT_TOOL_GUARD_OPTIONS } from './tool-guard-options.js';
import { readToolGuardState, toolGuardStateFileName, writeToolGuardState } from './tool-guard-store.js';

/** What a tool hook process prints and how it exits. */
export interface ToolHookRun {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Where the tool hook runs (each has a default). */
export interface RunToolHookOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Where to look for the configuration when the input names no folder (default: the process's). */
  readonly cwd?: string;
  readonly now?: () => Date;
  /** How long to wait for another tool hook of the session to release its state (default 5 s). */
  readonly lockTimeoutMs?: number;
}

/** Tool hooks run on every tool call, often several at once: a short wait for the state, then the call goes on unguarded. */
const DEFAULT_LOCK_TIMEOUT_MS = 5_000;

/**
 * One tool hook invocation for an input `parseToolHookInput` read: finds the
 * configuration, locks the session's tool guard state, records the call (after
 * it ran) or asks the guard about it (before it runs), saves the state and
 * encodes the answer for the host. It never traps the agent: anything that
 * goes wrong answers nothing (the call goes on as the host would run it) with
 * a line on stderr saying what.
 */
export async function runToolHook(host: HookHost, input: ToolHookInput, options: RunToolHookOptions = {}): Promise<ToolHookRun> {
  const env = options.env ?? process.env;
  const now = options.now ?? (() => new Date());
  const warnings: string[] = [];
  const finish = (stdout = ''): ToolHookRun => ({ exitCode: 0, stdout, stderr: warnings.map((line) => `${line}\n`).join('') });
  try {
    const startDirs = [input.cwd, env.CLAUDE_PROJECT_DIR, host === 'cursor' ? env.CURSOR_PROJECT_DIR : undefined, options.cwd ?? process.cwd()];
    const loaded = await loadStopwiseConfig(startDirs.filter((dir): dir is string => dir !== undefined && dir !== ''));
    if (!loaded.ok) {
      warnings.push(`stopwise: ${loaded.kind === 'missing' ? loaded.message : 'the configuration is invalid'}; the tool call was not guarded.`);
      return finish();
    }
    const guard = loaded.config.toolGuard ?? DEFAULT_TOOL_GUARD_OPTIONS;
    if (!guard.enabled) return finish();
    const stateDir = resolve(loaded.projectDir, loaded.config.stateDir);
    await ensureStateDir(stateDir);
    const path = join(stateDir, toolGuardStateFileName(host, input.sessionId ?? '', input.agentId));
    let lock: FileLock;
    try {
      lock = await acquireFileLock(path, { timeoutMs: options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS });
    } catch (error) {
      if (!(error instanceof LockTimeoutError)) throw error;
      warnings.push(`stopwise: another tool hook of this session held its state too long (${error.message}); this tool call was not guarded.`);
      return finish();
    }
    try {
      const read = await readToolGuardState(path, guard.stall, now());
      if (read.warning !== undefined) warnings.push(read.warning);
      const { state, answer } = guardToolEvent(read.state, input.event, guard, now());
      if (state !== read.state) await writeToolGuardState(path, state);
      if (answer.kind === 'context' && host === 'cursor') warnings.push(answer.message);
      const output = encodeToolGuardAnswer(host, input.eventName, answer);
      return finish(output === undefined ? '' : `${JSON.stringify(output)}\n`);
    } finally {
      await lock.release();
    }
  } catch (error) {
    warnings.push(`stopwise: the tool hook failed (${error instanceof Error ? error.message : String(error)}); the tool call was not guarded.`);
    return finish();
  }
}
