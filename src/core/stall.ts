import { STALL_ROUNDS } from './stop-policy.js';

/**
 * True when there are at least `window` fingerprints and the last `window` are
 * identical: the loop repeated itself without progress.
 */
export function isStalled(fingerprints: readonly string[], window: number = STALL_ROUNDS): boolean {
  assertWindow(window);
  const count = fingerprints.length;
  if (count < window) return false;
  const last = fingerprints[count - 1];
  for (let i = count - window; i < count - 1; i++) {
    if (fingerprints[i] !== last) return false;
  }
  return true;
}

/**
 * A new list with `fingerprint` appended that holds only the last `window`
 * fingerprints, so a long loop keeps O(window) memory. Pass the policy's
 * `stallRounds` as the window.
 */
export function appendFingerprint(
  recent: readonly string[],
  fingerprint: string,
  window: number = STALL_ROUNDS,
): string[] {
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
