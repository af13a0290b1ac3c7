import type { StallPattern } from '../core/stall-detection/stall-pattern.js';
import { initialStallState, type StallState } from '../core/stall-detection/stall-state.js';
import type { StepDigest } from '../core/stall-detection/step-digest.js';
import type { StallOptions } from '../core/stall-detection/stall-options.js';

/** A recorded call: the digest of its last run, whether that run's result differed from the run before, and when it started giving that result. */
export interface RecordedCall {
  readonly digest: StepDigest;
  /** A short text of the call for messages: the tool and the start of its command or input. */
  readonly label: string;
  readonly changed: boolean;
  readonly since: string;
}

/** The finding the ladder climbs: which pattern, from which step, on which call, how often it was seen before a call. */
export interface ToolGuardLadderState {
  readonly key: string;
  readonly pattern: StallPattern;
  readonly label: string;
  readonly since: number;
  readonly sinceAt: string;
  readonly repeats: number;
  readonly sightings: number;
  readonly refusals: number;
  readonly message: string;
  readonly error?: string;
}

/** A hand-off the next stop makes: what to ask the person, what was tried, the evidence, what happens after the answer. */
export interface ToolGuardHandOff {
  readonly question: string;
  readonly tried: string;
  readonly evidence: string;
  readonly afterAnswer: string;
  readonly at: string;
}

/**
 * What a tool guard remembers about one session between tool hook
 * invocations. Plain JSON of digests and counters: the stall detector's state
 * over the recorded calls, the last run of the most recent distinct calls, the
 * finding the ladder is on and a pending hand-off. Its size is bounded whatever
 * the number of calls.
 */
export interface ToolGuardState {
  readonly version: 1;
  readonly stall: StallState;
  readonly calls: readonly RecordedCall[];
  readonly ladder: ToolGuardLadderState | null;
  readonly handOff: ToolGuardHandOff | null;
  readonly totals: { readonly recorded: number; readonly nudges: number; readonly refusals: number; readonly handOffs: number };
  readonly updatedAt: string;
}

/** How many distinct recent calls the state keeps (the longest cycle the detector looks for is 16). */
export const MAX_RECORDED_CALLS = 16;

/** The state of a session the guard has not seen. */
export function initialToolGuardState(options: StallOptions, now: Date): ToolGuardState {
  return {
    version: 1,
    stall: initialStallState(options),
    calls: [],
    ladder: null,
    handOff: null,
    totals: { recorded: 0, nudges: 0, refusals: 0, handOffs: 0 },
    updatedAt: now.toISOString(),
  };
}

/** Reads a stored state; `undefined` when it is not a valid `ToolGuardState` (a corrupt or foreign file). */
export function parseToolGuardState(value: unknown): ToolGuardState | undefined {
  if (!isRecord(value) || value.version !== 1 || typeof value.updatedAt !== 'string') return undefined;
  if (!isStallState(value.stall)) return undefined;
  if (!Array.isArray(value.calls) || value.calls.length > MAX_RECORDED_CALLS || !value.calls.every(isRecordedCall)) return undefined;
  if (value.ladder !== null && !isLadder(value.ladder)) return undefined;
  if (value.handOff !== null && !isHandOff(value.handOff)) return undefined;
  const totals = value.totals;
  if (!isRecord(totals) || ![totals.recorded, totals.nudges, totals.refusals, totals.handOffs].every(isCount)) return undefined;
  return value as unknown as ToolGuardState;
}

function isStallState(value: unknown): value is StallState {
  if (!isRecord(value) || value.version !== 1 || !isCount(value.steps)) return false;
  const streak = (item: unknown): boolean => item === null || (isRecord(item) && typeof item.key === 'string' && isCount(item.count) && isCount(item.since));
  const strings = (item: unknown): boolean => Array.isArray(item) && item.every((entry) => typeof entry === 'string');
  const counter = (item: unknown): boolean => isRecord(item) && isCount(item.count) && isCount(item.since);
  return (
    streak(value.call) &&
    (value.call === null || isCount((value.call as Record<string, unknown>).failing)) &&
    streak(value.result) &&
    streak(value.error) &&
    streak(value.infrastructure) &&
    streak(value.tests) &&
    counter(value.monologue) &&
    counter(value.revisits) &&
    strings(value.recent) &&
    strings(value.seen) &&
    Array.isArray(value.periods) &&
    value.periods.every(isCount) &&
    Array.isArray(value.checks) &&
    value.checks.every(
      (check) => isRecord(check) && typeof check.call === 'string' && typeof check.result === 'string' && [check.runs, check.since, check.last].every(isCount),
    )
  );
}

function isRecordedCall(value: unknown): value is RecordedCall {
  if (!isRecord(value) || typeof value.label !== 'string' || typeof value.changed !== 'boolean' || typeof value.since !== 'string') return false;
  const digest = value.digest;
  return (
    isRecord(digest) &&
    ['tool', 'callDigest', 'resultDigest', 'signature', 'signatureDigest'].every((key) => typeof digest[key] === 'string') &&
    ['call', 'polling', 'failed', 'infrastructure', 'silentMessage'].every((key) => typeof digest[key] === 'boolean') &&
    isCount(digest.failedTests) &&
    (digest.tests === undefined || digest.tests === null || typeof digest.tests === 'string')
  );
}

function isLadder(value: unknown): value is ToolGuardLadderState {
  return (
    isRecord(value) &&
    ['key', 'pattern', 'label', 'sinceAt', 'message'].every((key) => typeof value[key] === 'string') &&
    [value.since, value.repeats, value.sightings, value.refusals].every(isCount) &&
    (value.error === undefined || typeof value.error === 'string')
  );
}

function isHandOff(value: unknown): value is ToolGuardHandOff {
  return isRecord(value) && ['question', 'tried', 'evidence', 'afterAnswer', 'at'].every((key) => typeof value[key] === 'string');
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
