/**
 * The stall detector over a generic step history, for a loop of your own:
 * `observeStep` feeds it one step at a time over plain JSON state, and
 * `detectStall` reads a whole history; `observeStallScore` runs a learned
 * stall score (`stopwise calibrate-stall --model score`) one step at a time.
 * A policy uses them through its `{ stall: { detector: 'step_history' } }`
 * and `{ stall: { detector: 'score', model } }` conditions.
 *
 * @module
 */
export { observeStep, detectStall } from '../core/stall-detection/observe-step.js';
export { initialStallState } from '../core/stall-detection/stall-state.js';
export type { StallState } from '../core/stall-detection/stall-state.js';
export { DEFAULT_STALL_OPTIONS } from '../core/stall-detection/stall-options.js';
export type { StallOptions, StallOptionsInput, StallScoreModel } from '../core/stall-detection/stall-options.js';
export type { StallFinding } from '../core/stall-detection/stall-finding.js';
export type { StallPattern } from '../core/stall-detection/stall-pattern.js';
export { observeStallScore, initialStallScoreState } from '../core/stall-detection/stall-score.js';
export type { StallScoreState } from '../core/stall-detection/stall-score.js';
