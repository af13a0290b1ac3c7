import type { AgentLoopState } from '../core/agent-loop-state.js';
import { decide } from '../core/policy/decide.js';
import type { StopEvent } from '../core/policy/stop-event.js';
import { seedStep } from '../core/seed-step.js';
import { DEFAULT_POLICY, assertStopPolicy, type StopPolicy } from '../core/stop-policy.js';
import { assertTestEvidence, type TestEvidence } from '../core/test-evidence.js';
import { contextOf, encodedStop, hookPolicy } from './answer-stop.js';
import { HOSTS } from './host.js';
import type { StopwiseConfig } from './stopwise-config.js';

/** A stop hook's stdin as the seed reads it (Claude Code `Stop`); every field optional, unknown ones ignored. */
export interface StopHookInput {
  readonly hook_event_name?: string;
  readonly stop_hook_active?: boolean;
  readonly last_assistant_message?: string;
  readonly [field: string]: unknown;
}

/** What the stateless hook cannot know on its own. */
export interface DecideStopHookOptions {
  /** Whether this attempt re-enters after a block; defaults to the host's `stop_hook_active`. */
  readonly reEntered?: boolean;
  /** The stop attempts so far, this one included: with it, the step cap and a stall hand off first. */
  readonly loop?: AgentLoopState;
  /** The numbers of the hook preset (`policy` of the configuration). */
  readonly policy?: StopPolicy;
  /** The rest of the configuration the hook decides with: a policy document, `maxConsecutiveBlocks`, the task and acceptance. */
  readonly config?: Partial<Pick<StopwiseConfig, 'stopPolicy' | 'maxConsecutiveBlocks' | 'task' | 'acceptance' | 'taskType'>>;
}

/**
 * The Claude Code stop hook's answer to one stop, decided and worded as
 * `stopwise hook claude-code` does with the same configuration, without its
 * state file: given the hook input, what the decision model said (`undefined`
 * when it was not asked, an `Error` when it could not be) and the test
 * evidence, block the stop with a reason for the agent (`decision: "block"`),
 * hand off with a line for the person (`systemMessage`), or allow it
 * (`undefined`). Failing or missing tests block once and then hand off; a
 * decision model that is down never turns a failure into a stop.
 *
 * @example
 * decideStopHook({ hook_event_name: 'Stop', stop_hook_active: false }, undefined, { passed: false, failed: ['auth > login'], ran: 12 });
 * // { decision: 'block', reason: '1 test failed: auth > login. Fix it and run the tests again before you finish.' }
 */
export function decideStopHook(
  input: StopHookInput,
  checked: { readonly probabilities: Readonly<Record<string, number>> } | Error | undefined,
  tests: TestEvidence,
  options: DecideStopHookOptions = {},
): { readonly decision?: 'block'; readonly reason?: string; readonly systemMessage?: string } | undefined {
  if (typeof input !== 'object' || input === null) throw new TypeError('the stop hook input must be an object');
  if (input.hook_event_name !== undefined && input.hook_event_name !== 'Stop' && input.hook_event_name !== 'SubagentStop') return undefined;
  assertTestEvidence(tests);
  const numbers = options.policy ?? DEFAULT_POLICY;
  assertStopPolicy(numbers);
  const config = { policy: numbers, maxConsecutiveBlocks: options.config?.maxConsecutiveBlocks ?? 1, ...(options.config?.stopPolicy === undefined ? {} : { stopPolicy: options.config.stopPolicy }) };
  const host = HOSTS['claude-code'];
  const cap = host.blockCap({}, undefined);
  const policy = hookPolicy(config, cap);
  // Without the attempts so far, this is the first one.
  const loop = options.loop ?? { step: 1, recentFingerprints: [] };
  const { state, event } = seedStep(policy, loop, tests);
  const reEntered = options.reEntered ?? input.stop_hook_active === true;
  const judged: Partial<StopEvent> =
    checked === undefined ? { decisionModel: 'none' } : checked instanceof Error ? { decisionModel: 'unavailable' } : { probabilities: checked.probabilities };
  const stopEvent: StopEvent = {
    ...event,
    ...judged,
    ...(reEntered ? { reentered: true } : {}),
    ...(options.config?.taskType === undefined ? {} : { taskType: options.config.taskType }),
  };
  const { decision } = decide(policy, state, stopEvent);
  // As the hook says it: a model that was asked and could not answer is a warning next to whatever was decided.
  const warning = checked instanceof Error ? { warning: `stopwise: the decision model could not be asked (${checked.message}); the tests decided on their own.` } : {};
  const encoded = host.encodeStop(encodedStop({ decision, ...contextOf(decision, { task: options.config?.task ?? '', acceptance: options.config?.acceptance ?? [] }), ...warning }, host, cap));
  return encoded.stdout as { readonly decision?: 'block'; readonly reason?: string; readonly systemMessage?: string } | undefined;
}
