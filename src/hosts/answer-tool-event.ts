import { join, resolve } from 'node:path';
import { acquireFileLock, LockTimeoutError, type FileLock } from './file-lock.js';
import { guardToolEvent } from './guard-tool-event.js';
import type { HookHost } from './hook-host.js';
import { ensureStateDir } from './hook-session-store.js';
import { loadToolGuardConfig } from './load-tool-guard-config.js';
import type { ToolEvent, ToolGuardAnswer } from './tool-event.js';
import { readToolGuardState, toolGuardStateFileName, writeToolGuardState } from './tool-guard-store.js';

/** Tool hooks run on every tool call, often several at once: a short wait for the state, then the call goes on unguarded. */
const DEFAULT_LOCK_TIMEOUT_MS = 5_000;

/** Where a tool event happened, for {@link answerToolEvent}: the hook's working folder, its environment and the session. */
export interface ToolGuardContext {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** The host's session id; without one, every call of the project shares one state. */
  readonly sessionId?: string;
  readonly agentId?: string;
  readonly now?: () => Date;
  readonly lockTimeoutMs?: number;
}

/**
 * The tool guard's answer to one tool event of a session, host-agnostic:
 * finds the configuration from `cwd` (then `$CLAUDE_PROJECT_DIR`) and reads
 * its `toolGuard` and `stateDir` (`loadToolGuardConfig`), locks the
 * session's tool guard state, runs `guardToolEvent` and saves the state.
 * Never throws for a problem of the project (no configuration, a held lock,
 * a broken file): the answer is then `none`, with a warning saying why.
 */
export async function answerToolEvent(host: HookHost, event: ToolEvent, context: ToolGuardContext): Promise<{ answer: ToolGuardAnswer; warnings: string[] }> {
  const { env } = context;
  const now = context.now ?? (() => new Date());
  const warnings: string[] = [];
  const none = { answer: { kind: 'none' } as const, warnings };
  try {
    const startDirs = [context.cwd, env.CLAUDE_PROJECT_DIR, host === 'cursor' ? env.CURSOR_PROJECT_DIR : undefined];
    const loaded = await loadToolGuardConfig(startDirs.filter((dir): dir is string => dir !== undefined && dir !== ''));
    if (!loaded.ok) {
      warnings.push(`stopwise: ${loaded.message}; the tool call was not guarded.`);
      return none;
    }
    const guard = loaded.toolGuard;
    if (!guard.enabled) return none;
    const stateDir = resolve(loaded.projectDir, loaded.stateDir);
    await ensureStateDir(stateDir);
    const path = join(stateDir, toolGuardStateFileName(host, context.sessionId ?? '', context.agentId));
    let lock: FileLock;
    try {
      lock = await acquireFileLock(path, { timeoutMs: context.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS });
    } catch (error) {
      if (!(error instanceof LockTimeoutError)) throw error;
      warnings.push(`stopwise: another tool hook of this session held its state too long (${error.message}); this tool call was not guarded.`);
      return none;
    }
    try {
      const read = await readToolGuardState(path, guard.stall, now());
      if (read.warning !== undefined) warnings.push(read.warning);
      const { state, answer } = guardToolEvent(read.state, event, guard, now());
      if (state !== read.state) await writeToolGuardState(path, state);
      return { answer, warnings };
    } finally {
      await lock.release();
    }
  } catch (error) {
    warnings.push(`stopwise: the tool hook failed (${error instanceof Error ? error.message : String(error)}); the tool call was not guarded.`);
    return none;
  }
}
