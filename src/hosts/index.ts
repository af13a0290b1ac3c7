/**
 * The coding-agent hooks: `runHook` is what `stopwise hook <host>` runs, and
 * `decideStopHook` the stop hook's answer to one stop, without a state file.
 *
 * @module
 */
export { runHook } from './run-hook.js';
export type { HookRun, RunHookOptions } from './run-hook.js';
export { decideStopHook } from './decide-stop-hook.js';
export type { StopHookInput, DecideStopHookOptions } from './decide-stop-hook.js';
export { HUMAN_REVIEW_NOTE } from './answer-stop.js';
export { HOOK_HOSTS } from './host.js';
export type { HookHost } from './host.js';
export { parseStopwiseConfig } from './stopwise-config.js';
export type { StopwiseConfig } from './stopwise-config.js';
