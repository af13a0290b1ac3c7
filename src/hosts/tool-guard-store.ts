import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { parseJsonText } from '../input/read-json-file.js';
import type { HookHost } from './hook-host.js';
import { sessionStateFileName } from './hook-session-store.js';
import type { StallOptions } from '../core/stall-detection/stall-options.js';
import { initialToolGuardState, parseToolGuardState, type ToolGuardState } from './tool-guard-state.js';
import { uniqueToken } from './unique-token.js';

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
export async function readToolGuardState(path: string, options: StallOptions, now: Date): Promise<{ state: ToolGuardState; warning?: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: initialToolGuardState(options, now) };
    throw error;
  }
  const parsed = parseJsonText(text);
  const state = parsed.ok ? parseToolGuardState(parsed.value) : undefined;
  if (state !== undefined) return { state };
  return {
    state: initialToolGuardState(options, now),
    warning: `stopwise: the tool guard state ${path} was not valid state; it was reset and this session's tool calls are counted afresh.`,
  };
}

/** Writes a session's tool guard state atomically (a temporary file in the same folder, then a rename), as compact JSON. */
export async function writeToolGuardState(path: string, state: ToolGuardState): Promise<void> {
  const temporary = `${path}.${uniqueToken()}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(state)}\n`, { mode: 0o600 });
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}
