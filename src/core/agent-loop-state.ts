import { fingerprintProgress } from './fingerprint.js';
import { appendFingerprint } from './stall.js';
import { STALL_ROUNDS } from './stop-policy.js';
import type { TestEvidence } from './test-evidence.js';

/**
 * Where a loop is: the number of the step just completed (from 1; 0 before the
 * first step) and the last progress fingerprints, newest last. Plain data: it
 * survives `JSON.parse(JSON.stringify(state))` and a process restart.
 */
export interface AgentLoopState {
  readonly step: number;
  readonly recentFingerprints: readonly string[];
}

/** The state of a loop before its first step. */
export function initialLoopState(): AgentLoopState {
  return { step: 0, recentFingerprints: [] };
}

/**
 * The state after one more step: the step count plus one and the step's
 * fingerprint appended, keeping only the last `window` fingerprints.
 */
export function advanceLoopState(
  state: AgentLoopState,
  tests: TestEvidence,
  output: string,
  window: number = STALL_ROUNDS,
): AgentLoopState {
  return {
    step: state.step + 1,
    recentFingerprints: appendFingerprint(state.recentFingerprints, fingerprintProgress(tests, output), window),
  };
}

/** Throws a `TypeError` when `loop` is not a valid `AgentLoopState`. */
export function assertLoopState(loop: AgentLoopState): void {
  if (typeof loop !== 'object' || loop === null) {
    throw new TypeError('loop must be an object { step, recentFingerprints }');
  }
  if (!Number.isInteger(loop.step) || loop.step < 0) {
    throw new TypeError(`loop.step must be a non-negative integer, got ${String(loop.step)}`);
  }
  if (!Array.isArray(loop.recentFingerprints)) {
    throw new TypeError('loop.recentFingerprints must be an array of strings');
  }
}
