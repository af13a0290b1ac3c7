import { decideUnobserved } from './policy/decide.js';
import { parseStopPolicy } from './policy/parse-stop-policy.js';
import { STOP_POLICY_VERSION, type StopPolicyDocument } from './policy/stop-policy-document.js';
import { seedStep } from './seed-step.js';
import { STALL_ROUNDS } from './stop-policy.js';

const documents = new Map<number, StopPolicyDocument>();
const NO_TESTS = Object.freeze({ passed: false, failed: Object.freeze([]) as readonly string[], ran: 0 });

/**
 * True when there are at least `window` fingerprints and the last `window` are
 * identical: the loop repeated itself without progress. It is the seed's stall
 * rule (`{ stall: { detector: 'identical_fingerprints', rounds: window } }`)
 * decided by the engine.
 */
export function isStalled(fingerprints: readonly string[], window: number = STALL_ROUNDS): boolean {
  assertWindow(window);
  if (!Array.isArray(fingerprints)) throw new TypeError('fingerprints must be an array of strings');
  let document = documents.get(window);
  if (document === undefined) {
    document = parseStopPolicy({
      version: STOP_POLICY_VERSION,
      name: 'stall',
      rules: [{ id: 'stalled', when: { stall: { detector: 'identical_fingerprints', rounds: window } }, then: { kind: 'stop', exit: 'need_help', reason: 'stalled' } }],
    });
    if (documents.size >= 64) documents.clear();
    documents.set(window, document);
  }
  const { state, event } = seedStep(document, { step: 1, recentFingerprints: fingerprints.slice(-window) }, NO_TESTS);
  return decideUnobserved(document, state, event).decision.kind === 'stop';
}

/**
 * A new list with `fingerprint` appended that holds only the last `window`
 * fingerprints, so a long loop keeps O(window) memory. Pass the policy's
 * `stallRounds` as the window.
 */
export function appendFingerprint(recent: readonly string[], fingerprint: string, window: number = STALL_ROUNDS): string[] {
  assertWindow(window);
  const keep = Math.max(0, Math.min(recent.length, window - 1));
  const next = recent.slice(recent.length - keep);
  next.push(fingerprint);
  return next;
}

function assertWindow(window: number): void {
  if (!Number.isInteger(window) || window < 1) {
    throw new TypeError(`stall window must be a positive integer, got ${String(window)}`);
  }
}
