import type { StopDecision } from '../core/policy/stop-decision.js';
import type { StopRunEnd } from '../core/stop-observer.js';
import { isStopHookBlock, type StopHookDecision } from './decide-stop-hook.js';
import type { HookHost } from './hook-host.js';
import type { StopHookInput } from './stop-hook-input.js';

/**
 * A stop hook's answer as the end of a run, for the stop observer: a block is
 * a `retry` (the agent goes on), a hand-off a stop with exit `need_help` (a
 * person should look: the checks failed, a limit or a stall was reached, or
 * the hook could not check), an allowed stop a stop with exit `success`, and
 * a Cursor loop that ended `aborted` or `error` a stop with exit `failed`.
 * The rule is `stop_hook`; its values name the host.
 */
export function hookRunEnd(host: HookHost, input: StopHookInput, decision: StopHookDecision): StopRunEnd {
  return { driver: 'stop-hook', decision: hookDecision(host, input, decision) };
}

function hookDecision(host: HookHost, input: StopHookInput, decision: StopHookDecision): StopDecision {
  const values = { host };
  if (isStopHookBlock(decision)) return { kind: 'retry', reason: 'stop_blocked', rule: 'stop_hook', values, trace: [], feedback: { message: decision.reason } };
  if (decision !== undefined) return { kind: 'stop', exit: 'need_help', reason: 'handed_off', rule: 'stop_hook', values, trace: [] };
  if (host === 'cursor' && input.status !== undefined && input.status !== 'completed') {
    return { kind: 'stop', exit: 'failed', reason: `cursor_${input.status}`, rule: 'stop_hook', values, trace: [] };
  }
  return { kind: 'stop', exit: 'success', reason: 'stop_allowed', rule: 'stop_hook', values, trace: [] };
}
