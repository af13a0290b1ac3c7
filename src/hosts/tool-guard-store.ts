import type { HookHost } from './hook-host.js';
import { sessionStateFileName } from './hook-session-store.js';
import type { StallOptions } from '../core/stall-detection/stall-options.js';
import { initialToolGuardState, parseToolGuardState, type ToolGuardState } from './tool-guard-state.js';
import { readStateFile, writeStateFile } from './state-file.js';

/**
 * The file name of a session's tool guard state, next to its stop state: the
 * same digest of host, session id and agent id, so that pruning the state
 * folder removes both.
 */
export function toolGuardStateFileName(host: HookHost, sessionId: string, agentId?: string): string {
  return sessionStateFileName(host, sessionId, agentId).replace(/\.json$/, '.tools.json');
}

/**
 * Reads a session's tool guard state; a missing file is a new session, and a
 * file that is not valid state (corrupt, cut short by a crash, another
 * program's) is reset, with a warning saying so.
 */
export function readToolGuardState(path: string, options: StallOptions, now: Date): Promise<{ state: ToolGuardState; warning?: string }> {
  return readStateFile(
    path,
    parseToolGuardState,
    () => initialToolGuardState(options, now),
    `stopwise: the tool guard state ${path} was not valid state; it was reset and this session's tool calls are counted afresh.`,
  );
}

/** Writes a session's tool guard state atomically (a temporary file in the same folder, then a rename), as compact JSON. */
export function writeToolGuardState(path: string, state: ToolGuardState): Promise<void> {
  return writeStateFile(path, `${JSON.stringify(state)}\n`);
}
