import type { StallPattern } from './stall-pattern.js';

/**
 * A stall the detector found: which pattern, the 0-based index of the step it
 * fired on, how many repeats it counted, the index of the step where the
 * repetition began, and one sentence the agent can act on.
 */
export interface StallFinding {
  readonly pattern: StallPattern;
  readonly step: number;
  readonly repeats: number;
  readonly since: number;
  readonly message: string;
}
