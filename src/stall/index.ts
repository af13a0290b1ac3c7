/**
 * The stall detector over a generic step history, for a loop of your own:
 * `observeStep` feeds it one step at a time over plain JSON state, and
 * `detectStall` reads a whole history. A policy uses it through its
 * `{ stall: { detector: 'step_history' } }` condition.
 *
 * @module
 */
export { observeStep, detectStall } from '../core/stall-detection/observe-step.js';
export { initialStallState } from '../core/stall-detection/stall-state.js';
export type { StallState } from '../core/stall-detection/stall-state.js';
export { DEFAULT_STALL_OPTIONS } from '../core/stall-detection/stall-options.js';
export type { StallOptions, StallOptionsInput } from '../core/stall-detection/stall-options.js';
export type { StallFinding } from '../core/stall-detection/stall-finding.js';
export type { StallPattern } from '../core/stall-detection/stall-pattern.js';
