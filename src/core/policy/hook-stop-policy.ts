import { DEFAULT_POLICY, assertStopPolicy, type StopPolicy } from '../stop-policy.js';
import { presetStopPolicy } from './parse-stop-policy.js';
import { STOP_POLICY_VERSION, type RuleCondition, type StopPolicyDocument } from './stop-policy-document.js';

/** The ids of the hook preset's rules, in order. */
export const HOOK_RULE_IDS = [
  'hard_cap',
  'stalled',
  'evidence_contradicts_model',
  'tests_failed_after_block',
  'tests_failed',
  'no_tests_after_block',
  'no_tests_ran',
  'passed_after_block',
  'decision_model_unavailable',
  'tests_passed_unjudged',
  'tests_and_criteria_passed',
  'criteria_below_threshold',
] as const;

/** Options of {@link hookStopPolicy}. */
export interface HookStopPolicyOptions {
  /**
   * How many blocks in a row before the next stop attempt is handed off
   * (default 1: block once, then hand off). With 1, the host's own re-entry
   * flag (`stop_hook_active`) counts as a block too.
   */
  readonly maxConsecutiveBlocks?: number;
}

/**
 * The stop hook's decision table as a policy document, with
 * the numbers of `policy`: the step cap and the identical-fingerprint stall
 * hand off first; failing tests hand off when the decision model says done,
 * block once and then hand off; no tests ran blocks once and then hands off;
 * passing tests after a block let the agent stop without asking the model
 * again; otherwise the model's lowest probability against the done threshold
 * lets the agent stop or blocks. A model that could not be asked (`decisionModel:
 * 'unavailable'`) never turns a failure into a stop and never blocks on its
 * own; with no model (`decisionModel: 'none'`) passing tests let the agent stop.
 *
 * Each stop attempt is one event (`step` is the attempt's number since the
 * agent was last let stop), with `tests`, `output` (the agent's last message),
 * `reentered` (the host's flag), and `probabilities` or `decisionModel`.
 *
 * @example
 * const policy = hookStopPolicy(createStopPolicy({ maxSteps: 8 }), { maxConsecutiveBlocks: 2 });
 */
export function hookStopPolicy(policy: StopPolicy = DEFAULT_POLICY, options: HookStopPolicyOptions = {}): StopPolicyDocument {
  assertStopPolicy(policy);
  const blocks = options.maxConsecutiveBlocks ?? 1;
  if (!Number.isInteger(blocks) || blocks < 1) throw new RangeError(`maxConsecutiveBlocks must be a positive integer, got ${String(blocks)}`);
  return presetStopPolicy(hookRules(policy, blocks));
}

function hookRules(policy: StopPolicy, maxConsecutiveBlocks: number): StopPolicyDocument {
  const { doneThreshold, maxSteps, stallRounds } = policy;
  // Re-entry after a block: the session's own count of blocks in a row (the engine's retries), and with one block
  // allowed, the host's flag as well (the hook's state may have been lost; the host still knows it blocked).
  const reentry: RuleCondition =
    maxConsecutiveBlocks === 1 ? { any: [{ retries: { atLeast: 1 } }, { reentered: true }] } : { retries: { atLeast: maxConsecutiveBlocks } };
  const notJudged: RuleCondition[] = [{ decisionModel: 'unavailable' }, { decisionModel: 'none' }];
  return {
    version: STOP_POLICY_VERSION,
    name: 'hook',
    rules: [
      { id: 'hard_cap', when: { limit: { of: 'steps', max: maxSteps } }, then: { kind: 'stop', exit: 'limit', reason: 'hard_cap' } },
      {
        id: 'stalled',
        when: { stall: { detector: 'identical_fingerprints', rounds: stallRounds } },
        then: { kind: 'stop', exit: 'need_help', reason: 'stalled' },
      },
      {
        id: 'evidence_contradicts_model',
        when: { all: [{ tests: 'failed' }, { decisionModel: 'answered' }, { criteria: { gte: doneThreshold } }] },
        then: { kind: 'stop', exit: 'need_help', reason: 'evidence_contradicts_model' },
      },
      {
        id: 'tests_failed_after_block',
        when: { all: [{ tests: 'failed' }, reentry] },
        then: { kind: 'stop', exit: 'need_help', reason: 'tests_failed_after_block' },
      },
      {
        id: 'tests_failed',
        when: { all: [{ tests: 'failed' }, { any: [{ criteria: { lt: doneThreshold } }, ...notJudged] }] },
        then: { kind: 'retry', reason: 'tests_failed' },
      },
      {
        id: 'no_tests_after_block',
        when: { all: [{ tests: 'no_tests_ran' }, reentry] },
        then: { kind: 'stop', exit: 'need_help', reason: 'no_tests_after_block' },
      },
      { id: 'no_tests_ran', when: { tests: 'no_tests_ran' }, then: { kind: 'retry', reason: 'no_tests_ran' } },
      {
        id: 'passed_after_block',
        when: { all: [{ tests: 'passed' }, reentry] },
        then: { kind: 'stop', exit: 'success', reason: 'passed_after_block' },
      },
      {
        id: 'decision_model_unavailable',
        when: { all: [{ tests: 'passed' }, { decisionModel: 'unavailable' }] },
        then: { kind: 'stop', exit: 'need_help', reason: 'decision_model_unavailable' },
      },
      {
        id: 'tests_passed_unjudged',
        when: { all: [{ tests: 'passed' }, { decisionModel: 'none' }] },
        then: { kind: 'stop', exit: 'success', reason: 'tests_passed' },
      },
      {
        id: 'tests_and_criteria_passed',
        when: { all: [{ tests: 'passed' }, { criteria: { gte: doneThreshold } }] },
        then: { kind: 'stop', exit: 'success', reason: 'tests_and_criteria_passed' },
      },
      {
        id: 'criteria_below_threshold',
        when: { all: [{ tests: 'passed' }, { criteria: { lt: doneThreshold } }] },
        then: { kind: 'retry', reason: 'criteria_below_threshold' },
      },
    ],
  };
}

/** The stop hook's decision table with the default numbers, blocking once and then handing off, as a policy document. */
export const HOOK_STOP_POLICY: StopPolicyDocument = hookStopPolicy(DEFAULT_POLICY);
