import { Murmur128 } from './murmur-hash.js';
import type { TestEvidence } from './test-evidence.js';

/** Length of every progress fingerprint, whatever the size of the output. */
export const FINGERPRINT_LENGTH = 32;

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
  const failed = [...tests.failed].sort();
  const hash = new Murmur128();
  hash.update(`stopwise.fp.1\npassed=${tests.passed ? 1 : 0}\nran=${tests.ran}\nfailed=${failed.length}\n`);
  for (const name of failed) hash.update(`${name.length}:${name}\n`);
  hash.update(`output=${output.length}:`);
  hash.update(output);
  return hash.digest();
}
