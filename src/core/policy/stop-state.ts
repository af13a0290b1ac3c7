import { describeValue } from '../describe-value.js';
import { MAX_FINGERPRINT_LENGTH } from '../fingerprint.js';
import { isStallScoreState, type StallScoreState } from '../stall-detection/stall-score.js';
import { isStallState, STALL_STATE_VERSION, type StallState } from '../stall-detection/stall-state.js';

/** The version of the state format `decide` reads and writes. */
export const STOP_STATE_VERSION = 2;

/** The run's totals, as the limit conditions read them. */
export interface StopTotals {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cost: number;
  readonly toolErrors: number;
  readonly decisionModelCalls: number;
  readonly decisionModelCost: number;
}

/** The part of the state that the next decision reads. */
export interface StopStateCore {
  /** The last step applied (0 before the first event). */
  readonly step: number;
  readonly totals: StopTotals;
  /** The run's wall clock at the last event that reported it. */
  readonly elapsedMs: number;
  /** The last progress fingerprints, newest last; as many as the policy's longest stall window. */
  readonly fingerprints: readonly string[];
  /** How many decisions in a row, up to the last event, were `retry`. */
  readonly retries: number;
  /** The state of each `step_history` stall detector of the policy, in document order (absent when it has none). */
  readonly stall?: readonly StallState[];
  /** The state of each learned stall score (`{ stall: { detector: 'score' } }`) of the policy, in document order (absent when it has none). */
  readonly score?: readonly StallScoreState[];
}

/**
 * What `decide` carries from one event to the next: plain, versioned JSON
 * that holds only what the rules read, bounded in size whatever the run's
 * length. `last` lets the last event be applied again (a durable runtime
 * replaying its last step) without counting anything twice.
 */
export interface StopState extends StopStateCore {
  readonly version: typeof STOP_STATE_VERSION;
  readonly last?: {
    /** A digest of the last event applied. */
    readonly digest: string;
    /** The state before it. */
    readonly prior: StopStateCore;
  };
}

/** Totals before the first step. */
export const ZERO_TOTALS: StopTotals = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cost: 0,
  toolErrors: 0,
  decisionModelCalls: 0,
  decisionModelCost: 0,
});

const TOTAL_KEYS = Object.keys(ZERO_TOTALS) as (keyof StopTotals)[];

/** Throws a `TypeError` naming the field when `state` is not a `StopState` this version wrote. */
export function assertStopState(state: StopState): void {
  if (typeof state !== 'object' || state === null || Array.isArray(state)) {
    throw new TypeError(`stop state must be an object (from initialStopState or decide), got ${describeValue(state)}`);
  }
  if (state.version !== STOP_STATE_VERSION) {
    throw new TypeError(`stop state version must be ${STOP_STATE_VERSION}, got ${describeValue(state.version)}`);
  }
  assertCore('state', state);
  if (state.last !== undefined) {
    if (typeof state.last !== 'object' || state.last === null || typeof state.last.digest !== 'string') {
      throw new TypeError('state.last must be { digest, prior }');
    }
    assertCore('state.last.prior', state.last.prior);
  }
}

function assertCore(where: string, core: StopStateCore): void {
  if (typeof core !== 'object' || core === null) throw new TypeError(`${where} must be an object`);
  if (!Number.isInteger(core.step) || core.step < 0) throw new TypeError(`${where}.step must be a non-negative integer, got ${describeValue(core.step)}`);
  const totals = core.totals;
  if (typeof totals !== 'object' || totals === null) throw new TypeError(`${where}.totals must be an object`);
  // Each counter read by name (one shape, fast on every decision); the message names the first that is wrong.
  if (
    !isAmount(totals.inputTokens) ||
    !isAmount(totals.outputTokens) ||
    !isAmount(totals.cost) ||
    !isAmount(totals.toolErrors) ||
    !isAmount(totals.decisionModelCalls) ||
    !isAmount(totals.decisionModelCost)
  ) {
    const key = TOTAL_KEYS.find((name) => !isAmount(totals[name])) as keyof StopTotals;
    throw amountError(`${where}.totals.${key}`, totals[key]);
  }
  if (!isAmount(core.elapsedMs)) throw amountError(`${where}.elapsedMs`, core.elapsedMs);
  if (!Number.isInteger(core.retries) || core.retries < 0) throw new TypeError(`${where}.retries must be a non-negative integer, got ${describeValue(core.retries)}`);
  const fingerprints = core.fingerprints;
  let valid = Array.isArray(fingerprints);
  for (let i = 0; valid && i < fingerprints.length; i++) valid = typeof fingerprints[i] === 'string' && (fingerprints[i] as string).length <= MAX_FINGERPRINT_LENGTH;
  if (!valid) throw new TypeError(`${where}.fingerprints must be an array of progress fingerprints (strings of at most ${MAX_FINGERPRINT_LENGTH} characters)`);
  if (core.stall !== undefined) {
    if (!Array.isArray(core.stall)) throw new TypeError(`${where}.stall must be an array of stall detector states (version ${STALL_STATE_VERSION})`);
    core.stall.forEach((stall: unknown, slot) => {
      const version = typeof stall === 'object' && stall !== null ? (stall as { version?: unknown }).version : undefined;
      if (version === STALL_STATE_VERSION && isStallState(stall)) return;
      // A detector state of an earlier version counts repeats differently: carrying it on would decide on counts it never kept.
      if (typeof version === 'number' && version < STALL_STATE_VERSION) throw new TypeError(olderStallState(`${where}.stall[${slot}]`, version));
      throw new TypeError(`${where}.stall[${slot}] must be a stall detector state (version ${STALL_STATE_VERSION}), got ${describeValue(stall)}`);
    });
  }
  if (core.score !== undefined && (!Array.isArray(core.score) || !core.score.every(isStallScoreState))) {
    const slot = Array.isArray(core.score) ? core.score.findIndex((score) => !isStallScoreState(score)) : -1;
    const rules = slot >= 0 ? ((core.score[slot] as { rules?: { version?: unknown } } | null)?.rules?.version) : undefined;
    if (typeof rules === 'number' && rules < STALL_STATE_VERSION) throw new TypeError(olderStallState(`${where}.score[${slot}].rules`, rules));
    throw new TypeError(`${where}.score must be an array of stall score states (from initialStopState or decide)${slot >= 0 ? `; [${slot}] is not one` : ''}`);
  }
}

/** What to do with a saved stall detector state of an earlier version. */
function olderStallState(field: string, version: number): string {
  return (
    `${field} is a stall detector state of version ${version}, saved by an earlier stopwise; this version (${STALL_STATE_VERSION}) counts ` +
    "repeats differently and cannot carry it on: finish that run with the version that began it, or start the run's state afresh " +
    'with initialStopState(policy) (its steps, totals and stall counts restart)'
  );
}

function isAmount(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function amountError(field: string, value: unknown): TypeError {
  return new TypeError(`${field} must be a non-negative finite number, got ${describeValue(value)}`);
}
