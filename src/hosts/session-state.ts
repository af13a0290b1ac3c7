import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Murmur128 } from '../core/murmur-hash.js';
import { assertStopState, type StopState } from '../core/policy/stop-state.js';
import type { TestEvidence } from '../core/test-evidence.js';
import { parseJsonText } from '../input/read-json-file.js';
import { acquireFileLock, LockTimeoutError } from './file-lock.js';
import type { HookHost } from './host.js';
import { isToolGuardState, type ToolGuardState } from './tool-guard.js';
import { uniqueToken } from './unique-token.js';

/** How one stop attempt ended. */
export type StopAttemptKind = 'block' | 'handoff' | 'allow';

/**
 * What the hook remembers about one session (one agent of it) between
 * invocations, stop and tool events alike: one file, one lock. Plain JSON,
 * bounded in size.
 */
export interface SessionState {
  readonly version: 2;
  /** The stop engine's state of the span of stop attempts since the agent was last let stop; `null` when a new span starts. */
  readonly stop: StopState | null;
  /** The evidence of the last test run, so that a pass on an unchanged tree need not run again. */
  readonly lastEvidence?: TestEvidence;
  /**
   * How the last stop attempt ended, and when; `previousRunEndedBy: 'host'`
   * when the run before it ended on a block of the hook's (the host's cap, or
   * the person, ended it: not stopwise).
   */
  readonly lastStop?: { readonly kind: StopAttemptKind; readonly at: string; readonly previousRunEndedBy?: 'host'; readonly turn?: string };
  /** The tool guard's state; `null` before the first tool event. */
  readonly tools: ToolGuardState | null;
  readonly updatedAt: string;
}


/**
 * The file of a session's state: a 128-bit MurmurHash3 digest of the host, the
 * session id and the agent id (a name, not a secret). The session id comes
 * from stdin and is never a path as it is: `../../etc/passwd` is just more
 * bytes to hash.
 */
export function sessionStatePath(stateDir: string, host: HookHost, sessionId: string, agentId?: string): string {
  return join(stateDir, `session-${new Murmur128().update(`${host}\0${sessionId}\0${agentId ?? ''}`).digest()}.json`);
}

/** A session the hook has not seen. */
export function newSessionState(now: Date): SessionState {
  return { version: 2, stop: null, tools: null, updatedAt: now.toISOString() };
}

/** A stored state as a {@link SessionState}; `undefined` when it is not one (corrupt, cut short, another program's, an older format). */
export function parseSessionState(value: unknown): SessionState | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  if (record.version !== 2 || typeof record.updatedAt !== 'string') return undefined;
  if (record.tools !== null && !isToolGuardState(record.tools)) return undefined;
  if (record.stop !== null) {
    try {
      assertStopState(record.stop as StopState);
    } catch {
      return undefined;
    }
  }
  const evidence = record.lastEvidence as Record<string, unknown> | undefined;
  if (evidence !== undefined && (typeof evidence !== 'object' || evidence === null || typeof evidence.passed !== 'boolean' || !Array.isArray(evidence.failed) || !Number.isInteger(evidence.ran))) {
    return undefined;
  }
  return value as SessionState;
}

/** What {@link withSessionState} hands back: the work's result, and the lines for the person (a reset state, a lock taken over). */
export interface SessionRun<T> {
  readonly result: T;
  readonly warnings: readonly string[];
}

/** The lock could not be had in time: the work did not run. */
export class SessionBusyError extends Error {
  override readonly name = 'SessionBusyError';
}

/**
 * Runs `work` on a session's state under the session's lock: reads the state
 * (a missing file is a new session; one that is not valid state is reset,
 * with a warning), lets `work` return the next state and a result, writes the
 * state atomically (a temporary file, then a rename) unless another hook took
 * the lock over meanwhile, and releases the lock. Throws `SessionBusyError`
 * when the lock is not had within `lockTimeoutMs`.
 */
export async function withSessionState<T>(
  path: string,
  options: { readonly now: () => Date; readonly lockTimeoutMs: number },
  work: (state: SessionState) => Promise<{ readonly state: SessionState; readonly result: T }>,
): Promise<SessionRun<T>> {
  const warnings: string[] = [];
  let lock;
  try {
    lock = await acquireFileLock(path, { timeoutMs: options.lockTimeoutMs });
  } catch (error) {
    if (error instanceof LockTimeoutError) throw new SessionBusyError(error.message);
    throw error;
  }
  try {
    const read = await readSessionState(path, options.now());
    if (read.warning !== undefined) warnings.push(read.warning);
    const { state, result } = await work(read.state);
    if (state !== read.state) {
      if (await lock.isHeld()) await writeSessionState(path, { ...state, updatedAt: options.now().toISOString() });
      else warnings.push(`stopwise: another hook of this session took over the lock on ${path} while this one ran (this one looked stalled); this one's update of the session state was not saved, so as not to overwrite the other's.`);
    }
    return { result, warnings };
  } finally {
    await lock.release();
  }
}

async function readSessionState(path: string, now: Date): Promise<{ state: SessionState; warning?: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: newSessionState(now) };
    throw error;
  }
  const parsed = parseJsonText(text);
  const state = parsed.ok ? parseSessionState(parsed.value) : undefined;
  return state === undefined
    ? { state: newSessionState(now), warning: `stopwise: the state file ${path} was not valid session state; it was reset and this session's counts start again.` }
    : { state };
}

async function writeSessionState(path: string, state: SessionState): Promise<void> {
  const temporary = `${path}.${uniqueToken()}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(state)}\n`, { mode: 0o600 });
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/** Makes the state folder (and its parents) when it is missing. */
export async function ensureStateDir(stateDir: string): Promise<void> {
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
}
