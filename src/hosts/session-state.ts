import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Murmur128 } from '../core/murmur-hash.js';
import { assertStopState, type StopState } from '../core/policy/stop-state.js';
import type { TestEvidence } from '../core/test-evidence.js';
import { canonicalJson } from '../core/stall-detection/call-key.js';
import { assertStallStep, type StallStep } from '../core/stall-detection/stall-step.js';
import { parseJsonText } from '../input/read-json-file.js';
import { acquireFileLock, LockTimeoutError } from './file-lock.js';
import type { HookHost, ToolEvent } from './host.js';
import { isToolGuardState, type ToolGuardState } from './tool-guard.js';
import { writeFileWhole } from './write-file-whole.js';

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
  /**
   * The tool calls and results since the last stop, for a policy's stall conditions over steps (kept only when the
   * policy has one): at most {@link MAX_TURN_STEPS}, the newest last, each output cut to its last
   * {@link MAX_STEP_CHARS} characters and a larger input kept as its digest.
   */
  readonly steps?: readonly StallStep[];
  readonly updatedAt: string;
}

/** The most tool steps a session keeps for the stop (the longest window a stall pattern looks back on is 64). */
export const MAX_TURN_STEPS = 64;
/** The most characters of one step's output (its end, where errors are) and of its input as JSON that a session keeps. */
export const MAX_STEP_CHARS = 2_000;

/** `steps` with one more tool call, as a session keeps it: bounded in number and in size. */
export function appendTurnStep(steps: readonly StallStep[] | undefined, call: ToolEvent): StallStep[] {
  const input = call.input === undefined ? undefined : canonicalJson(call.input);
  const step: StallStep = {
    tool: call.tool,
    ...(input === undefined ? {} : { input: input.length <= MAX_STEP_CHARS ? call.input : { digest: new Murmur128().update(input).digest() } }),
    ...(call.output === undefined ? {} : { output: call.output.length <= MAX_STEP_CHARS ? call.output : call.output.slice(-MAX_STEP_CHARS) }),
    ...(call.error === undefined ? {} : { error: call.error }),
    ...(call.exitCode === undefined ? {} : { exitCode: call.exitCode }),
  };
  const all = [...(steps ?? []), step];
  return all.length > MAX_TURN_STEPS ? all.slice(all.length - MAX_TURN_STEPS) : all;
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
  if (record.steps !== undefined) {
    if (!Array.isArray(record.steps) || record.steps.length > MAX_TURN_STEPS) return undefined;
    try {
      record.steps.forEach((step, index) => assertStallStep(step, `steps[${index}]`));
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
  if (state !== undefined) return { state };
  // A tool guard state this version cannot read (an earlier version's stall counts, say) is reset alone: the stop
  // state and the evidence stay.
  const value = parsed.ok ? parsed.value : undefined;
  const withoutTools = typeof value === 'object' && value !== null && !Array.isArray(value) ? parseSessionState({ ...value, tools: null }) : undefined;
  if (withoutTools !== undefined) {
    return {
      state: withoutTools,
      warning: `stopwise: the tool guard's state in ${path} was written by an earlier version of stopwise or is not valid; it was reset and the guard's counts start again.`,
    };
  }
  // A stop state this version cannot read: the span of stop attempts starts again, the rest stays.
  let why: string | undefined;
  try {
    if (typeof value === 'object' && value !== null && (value as { stop?: unknown }).stop !== null) assertStopState((value as { stop: StopState }).stop);
  } catch (error) {
    why = error instanceof Error ? error.message : String(error);
  }
  const withoutStop = why === undefined || typeof value !== 'object' || value === null ? undefined : parseSessionState({ ...value, stop: null });
  if (withoutStop !== undefined) {
    return { state: withoutStop, warning: `stopwise: the stop state in ${path} could not be read (${why}); it was reset and this span's blocks count from zero.` };
  }
  return { state: newSessionState(now), warning: `stopwise: the state file ${path} was not valid session state; it was reset and this session's counts start again.` };
}

function writeSessionState(path: string, state: SessionState): Promise<void> {
  return writeFileWhole(path, `${JSON.stringify(state)}\n`);
}

/** Makes the state folder (and its parents) when it is missing. */
export async function ensureStateDir(stateDir: string): Promise<void> {
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
}
