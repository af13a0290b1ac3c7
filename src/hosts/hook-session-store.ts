import { mkdir, readdir, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Murmur128 } from '../core/murmur-hash.js';
import type { HookHost } from './hook-host.js';
import { initialHookSessionState, parseHookSessionState, type HookSessionState } from './hook-session-state.js';
import { readStateFile, writeStateFile } from './state-file.js';

/** Session states untouched for this long are deleted (7 days). */
export const SESSION_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
const PRUNE_MARKER = '.last-prune';

/**
 * The file name of a session's state: a 128-bit MurmurHash3 digest of the
 * host, the session id and the agent id (a name, not a secret: the tool hook
 * that shares it runs on every tool call and does not load `node:crypto`).
 * The session id comes from stdin and is never a path as it is:
 * `../../etc/passwd` is just more bytes to hash.
 */
export function sessionStateFileName(host: HookHost, sessionId: string, agentId?: string): string {
  return `session-${new Murmur128().update(`${host}\0${sessionId}\0${agentId ?? ''}`).digest()}.json`;
}

/**
 * Reads a session's state; a missing file is a new session, and a file that
 * is not valid state is reset, with a warning saying so.
 */
export function readHookSessionState(path: string, now: Date): Promise<{ state: HookSessionState; warning?: string }> {
  return readStateFile(
    path,
    parseHookSessionState,
    () => initialHookSessionState(now),
    `stopwise: the state file ${path} was corrupt (not valid session state); it was reset and this session's counts start again.`,
  );
}

/** Writes a session's state atomically: a temporary file in the same folder, then a rename over the old one. */
export function writeHookSessionState(path: string, state: HookSessionState): Promise<void> {
  return writeStateFile(path, `${JSON.stringify(state, null, 2)}\n`);
}

/** Makes the state folder (and its parents) when it is missing. */
export async function ensureStateDir(stateDir: string): Promise<void> {
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
}

/**
 * Deletes session states untouched for `retentionMs` and temporary files left
 * by a crash, at most once an hour (a marker file remembers when). Errors are
 * ignored: pruning is housekeeping.
 */
export async function pruneHookSessionStates(
  stateDir: string,
  now: Date,
  retentionMs: number = SESSION_RETENTION_MS,
): Promise<{ pruned: number }> {
  const marker = join(stateDir, PRUNE_MARKER);
  const last = await stat(marker).then((info) => info.mtimeMs, () => 0);
  if (now.getTime() - last < PRUNE_EVERY_MS) return { pruned: 0 };
  await writeFile(marker, '').catch(() => undefined);
  await utimes(marker, now, now).catch(() => undefined);
  let pruned = 0;
  let names: string[];
  try {
    names = await readdir(stateDir);
  } catch {
    return { pruned };
  }
  for (const name of names) {
    const isState = name.startsWith('session-') && name.endsWith('.json');
    const isTemporary = name.startsWith('session-') && name.endsWith('.tmp');
    const isLeftoverLock = name.startsWith('session-') && (name.endsWith('.lock') || name.endsWith('.takeover'));
    if (!isState && !isTemporary && !isLeftoverLock) continue;
    const path = join(stateDir, name);
    const age = await stat(path).then((info) => now.getTime() - info.mtimeMs, () => -1);
    if (age > (isTemporary ? PRUNE_EVERY_MS : retentionMs)) {
      await unlink(path).then(() => pruned++, () => undefined);
    }
  }
  return { pruned };
}
