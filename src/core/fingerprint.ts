import { Murmur128 } from './murmur-hash.js';
import type { TestEvidence } from './test-evidence.js';

/** Length of every progress fingerprint, whatever the size of the output. */
export const FINGERPRINT_LENGTH = 32;

/** The longest fingerprint a state or an event may carry: a driver's own may be any short string, so the state stays small. */
export const MAX_FINGERPRINT_LENGTH = 128;

/**
 * A fixed-size digest (32 hex characters) of one step's progress: whether the
 * tests passed, the failed test names (order does not matter), how many ran,
 * and the agent's output. Equal inputs give equal fingerprints; a loop keeps
 * fingerprints, never outputs, so its memory does not grow with their size.
 *
 * The digest is MurmurHash3 x86_128 over a length-prefixed encoding: it
 * detects repetition, it is not a cryptographic commitment.
 */
export function fingerprintProgress(tests: TestEvidence, output: string): string {
  let head = `stopwise.fp.1\npassed=${tests.passed ? 1 : 0}\nran=${tests.ran}\nfailed=${tests.failed.length}\n`;
  const failed = tests.failed.length > 1 ? [...tests.failed].sort() : tests.failed;
  for (const name of failed) head += `${name.length}:${name}\n`;
  return new Murmur128().update(`${head}output=${output.length}:`).update(output).digest();
}
