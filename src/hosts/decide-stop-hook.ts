import { assertLoopState, type AgentLoopState } from '../core/agent-loop-state.js';
import type { EvaluationContext } from '../core/policy/compile-stop-policy.js';
import { evaluateRules } from '../core/policy/decide.js';
import { hookTemplate } from '../core/policy/hook-stop-policy.js';
import { ZERO_TOTALS } from '../core/policy/stop-state.js';
import { DEFAULT_POLICY, assertStopPolicy, type StopPolicy } from '../core/stop-policy.js';
import { assertTestEvidence, type TestEvidence } from '../core/test-evidence.js';
import { isStopEventName } from './hook-host.js';
import { hostSignalsReentry, type StopHookInput } from './stop-hook-input.js';
import type { StopHookCheck, StopHookDecision, StopHookHandoff } from './stop-hook-decision.js';
import { toStopHookDecision, type StopHookFacts } from './to-stop-hook-decision.js';

export { HUMAN_REVIEW_NOTE } from './to-stop-hook-decision.js';
export { isStopHookBlock } from './stop-hook-decision.js';
export type { StopHookBlock, StopHookCheck, StopHookDecision, StopHookHandoff } from './stop-hook-decision.js';

/** What the stateless table cannot know on its own. */
export interface DecideStopHookOptions {
  /**
   * Whether this stop attempt re-enters after a block. Defaults to what the
   * host says (`stop_hook_active`, or Cursor's `loop_count` above zero); the
   * `stopwise hook` command passes its own count of blocks instead.
   */
  readonly reEntered?: boolean;
  /** The stop attempts so far: with it, the step cap and a stall hand off first (rules 1 and 2). */
  readonly loop?: AgentLoopState;
  readonly policy?: StopPolicy;
}

/**
 * The stop hook's decision table: given the hook input, what the decision
 * model said (or `undefined` when it was not asked, or an `Error` when it
 * could not be), and the test evidence, block the stop with a reason for the
 * agent, hand off with a message for the person, or allow it (`undefined`).
 * Failing or missing tests block once and then hand off; a decision model
 * that is down never turns a failure into a stop, and never blocks on its own.
 * It is the hook preset (`hookStopPolicy(policy)`) of the stop engine, as the
 * hook's answer (`toStopHookDecision`); the model's probabilities are read
 * against the policy's done threshold.
 *
 * @example
 * decideStopHook({ hook_event_name: 'Stop', stop_hook_active: false }, undefined, { passed: false, failed: ['auth > login'], ran: 12 });
 * // { decision: 'block', reason: '1 test failed: auth > login. Fix it and run the tests again before you stop.' }
 */
export function decideStopHook(
  input: StopHookInput,
  checked: StopHookCheck,
  tests: TestEvidence,
  options: DecideStopHookOptions = {},
): StopHookDecision {
  if (input.hook_event_name !== undefined && !isStopEventName(input.hook_event_name)) return undefined;
  assertTestEvidence(tests);
  const policy = options.policy ?? DEFAULT_POLICY;
  assertStopPolicy(policy);
  if (options.loop !== undefined) assertLoopState(options.loop);
  const reEntered = options.reEntered ?? hostSignalsReentry(input);
  const result = evaluateHookTable(tests, checked, options.loop, reEntered, policy);
  // Every judgement is given (probabilities, or why there are none), so the table always decides.
  if ('pending' in result) throw new TypeError(`the hook preset could not decide: rule "${result.pending}" is waiting for the decision model`);
  return toStopHookDecision(result.decision, factsOf(tests, checked));
}

/**
 * The hook preset on one attempt, stateless: `checked` is the decision
 * model's answer, or `'not asked'` to learn whether the rules need it
 * (`pending`). `reEntered` stands for the blocks in a row before it.
 */
export function evaluateHookTable(
  tests: TestEvidence,
  checked: StopHookCheck | 'not asked',
  loop: AgentLoopState | undefined,
  reEntered: boolean,
  policy: StopPolicy,
): ReturnType<typeof evaluateRules> {
  return evaluateRules(hookTemplate(), hookContext(tests, checked, loop, reEntered, policy), false);
}

/**
 * Rules 1 and 2 of the hook preset: the hand-off when the attempts so far
 * reach the step cap or stall, `undefined` when neither does.
 */
export function stopLimitHandoff(tests: TestEvidence, loop: AgentLoopState, policy: StopPolicy): StopHookHandoff | undefined {
  assertTestEvidence(tests);
  assertLoopState(loop);
  assertStopPolicy(policy);
  const result = evaluateHookTable(tests, undefined, loop, false, policy);
  if ('pending' in result || (result.decision.rule !== 'hard_cap' && result.decision.rule !== 'stalled')) return undefined;
  return toStopHookDecision(result.decision, { tests }) as StopHookHandoff;
}

/** The facts a stop hook's answer reads, from the decision model's answer. */
export function factsOf(tests: TestEvidence, checked: StopHookCheck): StopHookFacts {
  if (checked === undefined) return { tests };
  if (checked instanceof Error) return { tests, modelError: checked };
  return { tests, probabilities: checked.probabilities };
}

function hookContext(tests: TestEvidence, checked: StopHookCheck | 'not asked', loop: AgentLoopState | undefined, reEntered: boolean, policy: StopPolicy): EvaluationContext {
  return {
    step: loop?.step ?? 0,
    totals: ZERO_TOTALS,
    elapsedMs: 0,
    fingerprints: loop?.recentFingerprints ?? [],
    retries: reEntered ? 1 : 0,
    tests,
    probabilities: checked === undefined || checked === 'not asked' || checked instanceof Error ? undefined : checked.probabilities,
    judge: checked === undefined ? 'none' : checked instanceof Error ? 'unavailable' : undefined,
    signal: undefined,
    verification: undefined,
    checks: undefined,
    human: undefined,
    tree: undefined,
    params: policy,
  };
}
