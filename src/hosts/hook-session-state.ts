import type { AgentLoopState } from '../core/agent-loop-state.js';
import { FINGERPRINT_LENGTH, fingerprintProgress } from '../core/fingerprint.js';
import { assertStopState, initialStopState, type StopState } from '../core/policy/stop-state.js';
import type { StopPolicyDocument } from '../core/policy/stop-policy-document.js';
import { appendFingerprint } from '../core/stall.js';
import type { TestEvidence } from '../core/test-evidence.js';

/**
 * What a stop hook remembers about one session between invocations. Plain
 * JSON. The span is the run of stop attempts since the hook last let the agent
 * stop: `step` is the number of the last attempt in it (0 when a new span
 * starts), `consecutiveBlocks` how many of its attempts were blocked, and
 * `recentFingerprints` its progress window.
 */
export interface HookSessionState {
  readonly version: 1;
  readonly step: number;
  readonly consecutiveBlocks: number;
  readonly recentFingerprints: readonly string[];
  /** The evidence of the last test run, so that a fresh pass need not run again. */
  readonly lastEvidence?: TestEvidence;
  readonly totals: { readonly attempts: number; readonly blocks: number; readonly handoffs: number; readonly allows: number };
  readonly lastOutcome?: {
    readonly kind: StopOutcomeKind;
    readonly at: string;
    readonly message?: string;
    /** Who ended the run with this decision: `'stopwise'` on an allow or a hand-off; absent on a block (the run goes on). */
    readonly endedBy?: 'stopwise';
    /** Set when the run before this stop ended on a block of ours: the host ended it (its cap) or the person did, not stopwise. */
    readonly previousRunEndedBy?: 'host';
  };
  readonly updatedAt: string;
  /**
   * The stop engine's state of the span (`decide`), after its last blocked
   * attempt; absent when a new span starts. `step`, `consecutiveBlocks` and
   * `recentFingerprints` are kept equal to its `step`, `retries` and `fingerprints`.
   */
  readonly stopState?: StopState;
}

/** How one stop attempt ended. */
export type StopOutcomeKind = 'block' | 'handoff' | 'allow';

/** One stop attempt: its step in the span and the progress window including it (and the stop state after it, when the engine decided it). */
export interface StopAttempt {
  readonly loop: AgentLoopState;
  readonly stopState?: StopState;
}

/** The state of a session the hook has not seen. */
export function initialHookSessionState(now: Date): HookSessionState {
  return {
    version: 1,
    step: 0,
    consecutiveBlocks: 0,
    recentFingerprints: [],
    totals: { attempts: 0, blocks: 0, handoffs: 0, allows: 0 },
    updatedAt: now.toISOString(),
  };
}

/**
 * The next stop attempt of the span: one step further, with this attempt's
 * progress fingerprint (the test result and the agent's last message) in the
 * window of the last `stallRounds`.
 */
export function beginStopAttempt(state: HookSessionState, tests: TestEvidence, output: string, stallRounds: number): StopAttempt {
  return {
    loop: {
      step: state.step + 1,
      recentFingerprints: appendFingerprint(state.recentFingerprints, fingerprintProgress(tests, output), stallRounds),
    },
  };
}

/**
 * Whether this attempt re-enters after blocks: the span already holds
 * `maxConsecutiveBlocks` blocks, or the host says so (`stop_hook_active`,
 * Cursor's `loop_count`) while at most one block in a row is allowed.
 */
export function isReentry(state: HookSessionState, maxConsecutiveBlocks: number, hostSignal: boolean): boolean {
  return state.consecutiveBlocks >= maxConsecutiveBlocks || (maxConsecutiveBlocks === 1 && hostSignal);
}

/**
 * The state after an attempt ended: a block keeps the span going (its step,
 * one more block, its window); an allow or a hand-off lets the agent stop, so
 * the span starts again.
 */
export function recordStopOutcome(
  state: HookSessionState,
  attempt: StopAttempt | undefined,
  outcome: { readonly kind: StopOutcomeKind; readonly message?: string; readonly previousRunEndedBy?: 'host' },
  evidence: TestEvidence | undefined,
  now: Date,
): HookSessionState {
  const at = now.toISOString();
  const totals = {
    attempts: state.totals.attempts + 1,
    blocks: state.totals.blocks + (outcome.kind === 'block' ? 1 : 0),
    handoffs: state.totals.handoffs + (outcome.kind === 'handoff' ? 1 : 0),
    allows: state.totals.allows + (outcome.kind === 'allow' ? 1 : 0),
  };
  const lastEvidence = evidence ?? state.lastEvidence;
  const span =
    outcome.kind === 'block' && attempt !== undefined
      ? {
          step: attempt.loop.step,
          consecutiveBlocks: state.consecutiveBlocks + 1,
          recentFingerprints: [...attempt.loop.recentFingerprints],
          ...(attempt.stopState === undefined ? {} : { stopState: attempt.stopState }),
        }
      : { step: 0, consecutiveBlocks: 0, recentFingerprints: [] };
  return {
    version: 1,
    ...span,
    ...(lastEvidence === undefined ? {} : { lastEvidence }),
    totals,
    lastOutcome: {
      kind: outcome.kind,
      at,
      ...(outcome.message === undefined ? {} : { message: outcome.message }),
      ...(outcome.kind === 'block' ? {} : { endedBy: 'stopwise' as const }),
      ...(outcome.previousRunEndedBy === undefined ? {} : { previousRunEndedBy: outcome.previousRunEndedBy }),
    },
    updatedAt: at,
  };
}

/**
 * The stop engine's state of the session's span for `policy`: the saved one,
 * or (for a state saved before the engine decided the hook, or a saved stop
 * state that is not valid) one rebuilt from the span's step, blocks and
 * fingerprints, so that an upgrade mid-span neither forgets a block nor
 * counts one twice.
 */
export function sessionStopState(state: HookSessionState, policy: StopPolicyDocument): StopState {
  const initial = initialStopState(policy);
  if (state.stopState !== undefined) {
    try {
      assertStopState(state.stopState);
      if (state.stopState.step === state.step && state.stopState.retries === state.consecutiveBlocks) return state.stopState;
    } catch {
      // rebuilt below
    }
  }
  return {
    ...initial,
    step: state.step,
    retries: state.consecutiveBlocks,
    fingerprints: state.recentFingerprints.filter((fingerprint) => fingerprint.length === FINGERPRINT_LENGTH),
  };
}

/** Reads a stored state; `undefined` when it is not a valid `HookSessionState`. */
export function parseHookSessionState(value: unknown): HookSessionState | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  if (record.version !== 1) return undefined;
  if (!isCount(record.step) || !isCount(record.consecutiveBlocks)) return undefined;
  if (!Array.isArray(record.recentFingerprints) || !record.recentFingerprints.every((item) => typeof item === 'string')) return undefined;
  if (typeof record.updatedAt !== 'string') return undefined;
  const totals = record.totals as Record<string, unknown> | null | undefined;
  if (typeof totals !== 'object' || totals === null) return undefined;
  if (![totals.attempts, totals.blocks, totals.handoffs, totals.allows].every(isCount)) return undefined;
  if (record.lastEvidence !== undefined && !isEvidence(record.lastEvidence)) return undefined;
  return value as HookSessionState;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function isEvidence(value: unknown): value is TestEvidence {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.passed === 'boolean' &&
    isCount(record.ran) &&
    Array.isArray(record.failed) &&
    record.failed.every((name) => typeof name === 'string')
  );
}

/**
 * Whether the run before this stop ended on a block of ours without stopwise
 * letting it stop: the last outcome was a block, and the host says this stop
 * starts afresh (`stop_hook_active: false`, or Cursor's `loop_count: 0`). The
 * host's cap ended it, or the person interrupted; either way not stopwise.
 */
export function previousRunEndedByHost(state: HookSessionState, input: { readonly stop_hook_active?: boolean; readonly loop_count?: number }): boolean {
  if (state.lastOutcome?.kind !== 'block') return false;
  return input.stop_hook_active === false || input.loop_count === 0;
}
