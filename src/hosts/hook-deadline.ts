import { MAX_TIMEOUT_MS } from './config-file.js';

/** The two timeouts of a configuration that the deadline is made of. */
export interface HookTimeouts {
  readonly tests: { readonly timeoutMs: number };
  readonly decisionModel: { readonly timeoutMs: number };
}

/** What the hook's deadline adds to the tests and two decision-model requests: start-up, the lock wait, the state, the answer. */
export const HOOK_DEADLINE_SLACK_MS = 20_000;
/** The longest the hook waits for another invocation of the same session to release the state lock. */
export const MAX_LOCK_WAIT_MS = 20_000;
/** What the host's timeout that `stopwise init` writes adds to the hook's deadline, so that the hook answers first. */
export const HOST_TIMEOUT_MARGIN_MS = 10_000;

/**
 * How long one stop hook invocation may take, counted from its process start:
 * `tests.timeoutMs + 2 × decisionModel.timeoutMs + 20 s` (at most 2^31 − 1 ms).
 */
export function stopHookDeadlineMs(config: HookTimeouts): number {
  return Math.min(MAX_TIMEOUT_MS, config.tests.timeoutMs + 2 * config.decisionModel.timeoutMs + HOOK_DEADLINE_SLACK_MS);
}

/** The host timeout `stopwise init` writes, in seconds: the hook's deadline plus 10 s. */
export function hostTimeoutSeconds(config: HookTimeouts): number {
  return Math.ceil((stopHookDeadlineMs(config) + HOST_TIMEOUT_MARGIN_MS) / 1000);
}
