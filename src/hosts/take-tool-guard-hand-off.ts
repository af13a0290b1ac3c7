import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { acquireFileLock } from './file-lock.js';
import { describeToolGuardHandOff } from './guard-tool-event.js';
import type { HookHost } from './hook-host.js';
import { DEFAULT_TOOL_GUARD_OPTIONS, type ToolGuardOptions } from './tool-guard-options.js';
import { initialToolGuardState } from './tool-guard-state.js';
import { readToolGuardState, toolGuardStateFileName, writeToolGuardState } from './tool-guard-store.js';

/** Where a session's tool guard state is, and what the guard runs with. */
export interface ToolGuardSession {
  readonly stateDir: string;
  readonly host: HookHost;
  readonly sessionId: string;
  readonly agentId?: string;
  readonly options?: ToolGuardOptions;
  readonly now: Date;
}

/** A stop waits this long at most for the tool hooks of its session. */
const LOCK_TIMEOUT_MS = 2_000;

/**
 * At a stop: the hand-off the tool guard left for it, as the message for the
 * person (the question, what was tried, the evidence, what happens after the
 * answer), or `undefined` when there is none. Taking it starts the guard
 * afresh for the session: after the person's answer, the calls are counted
 * anew. A state that cannot be read or locked is no hand-off: the stop hook
 * decides as it would without tool hooks. Without a state file (no tool hook
 * ran in the session) nothing is locked or read.
 */
export async function takeToolGuardHandOff(session: ToolGuardSession): Promise<string | undefined> {
  const options = session.options ?? DEFAULT_TOOL_GUARD_OPTIONS;
  if (!options.enabled) return undefined;
  const path = join(session.stateDir, toolGuardStateFileName(session.host, session.sessionId, session.agentId));
  try {
    await access(path);
  } catch {
    return undefined;
  }
  let lock;
  try {
    lock = await acquireFileLock(path, { timeoutMs: LOCK_TIMEOUT_MS });
  } catch {
    return undefined;
  }
  try {
    const { state } = await readToolGuardState(path, options.stall, session.now);
    if (state.handOff === null) return undefined;
    const fresh = initialToolGuardState(options.stall, session.now);
    await writeToolGuardState(path, { ...fresh, totals: state.totals });
    return describeToolGuardHandOff(state.handOff);
  } catch {
    return undefined;
  } finally {
    await lock.release();
  }
}
