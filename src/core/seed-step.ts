import { assertLoopState, type AgentLoopState } from './agent-loop-state.js';
import type { CriterionProbabilities } from './criterion-probabilities.js';
import { MAX_FINGERPRINT_LENGTH } from './fingerprint.js';
import { Murmur128 } from './murmur-hash.js';
import type { StopEvent } from './policy/stop-event.js';
import type { StopPolicyDocument } from './policy/stop-policy-document.js';
import type { StopState } from './policy/stop-state.js';
import { initialStopState } from './policy/decide.js';
import type { TestEvidence } from './test-evidence.js';

/**
 * The seed's loop state as the engine's state and event: `loop` is the state
 * after its step (the step number and the fingerprints with this step's last),
 * so the state is the one before the step and the event carries the step's own
 * fingerprint (none when the loop keeps none). A fingerprint longer than an
 * engine state keeps is replaced by its digest: equal strings stay equal.
 */
export function seedStep(
  document: StopPolicyDocument,
  loop: AgentLoopState,
  tests: TestEvidence,
  probabilities?: CriterionProbabilities,
): { state: StopState; event: StopEvent } {
  assertLoopState(loop);
  const fingerprints = loop.recentFingerprints.map(short);
  const last = fingerprints.length === 0 ? null : (fingerprints[fingerprints.length - 1] as string);
  const state: StopState = { ...initialStopState(document), step: Math.max(0, loop.step - 1), fingerprints: fingerprints.slice(0, -1) };
  const event: StopEvent = probabilities === undefined ? { step: loop.step, tests, fingerprint: last } : { step: loop.step, tests, probabilities, fingerprint: last };
  return { state, event };
}

function short(fingerprint: string): string {
  if (typeof fingerprint !== 'string') throw new TypeError('loop.recentFingerprints must be an array of strings');
  return fingerprint.length <= MAX_FINGERPRINT_LENGTH ? fingerprint : `long:${new Murmur128().update(fingerprint).digest()}`;
}
