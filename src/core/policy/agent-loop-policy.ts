import { assertLimits, type BudgetLimits } from '../budget.js';
import { compileStopPolicy } from './compile-stop-policy.js';
import { parseStopPolicy } from './parse-stop-policy.js';
import { STOP_POLICY_VERSION, type LimitName, type RuleCondition, type StopPolicyDocument, type StopRule } from './stop-policy-document.js';

/** What a person's silence means to {@link agentLoopPolicy}: end as `need_help`, or go on without the answer. */
export type HumanTimeoutPolicy = 'stop' | 'continue';

/** The budget limits in the order `checkBudget` reads them, with the engine's counter for each. */
export const BUDGET_LIMITS: readonly (readonly [keyof BudgetLimits, LimitName])[] = [
  ['maxSteps', 'steps'],
  ['maxWallClockMs', 'wallClockMs'],
  ['maxInputTokens', 'inputTokens'],
  ['maxOutputTokens', 'outputTokens'],
  ['maxTotalTokens', 'totalTokens'],
  ['maxCost', 'cost'],
  ['maxToolErrors', 'toolErrors'],
];

/**
 * One rule per limit that is set, in the order of `checkBudget`, each
 * stopping as `limit` with the limit's key as its id and reason. A step cap is
 * a whole number of steps: a fractional `maxSteps` becomes the next integer
 * (the step at which it is reached); `maxSteps: 0` is reached before the first
 * step (the event of step 0). An infinite limit has no rule.
 */
export function budgetRules(limits: BudgetLimits): StopRule[] {
  assertLimits(limits);
  const rules: StopRule[] = [];
  for (const [key, of] of BUDGET_LIMITS) {
    const value = limits[key];
    if (value === undefined || value === Infinity) continue;
    rules.push({ id: key, when: { limit: { of, max: of === 'steps' ? Math.ceil(value) : value } }, then: { kind: 'stop', exit: 'limit', reason: key } });
  }
  return rules;
}

/**
 * The policy `runAgentLoop` runs with when it is given `limits` and no
 * `policy`: its exits as rules, first match wins.
 *
 * 1. `provider_failed`: the provider's generation could not be read: `failed`;
 * 2. `provider_limit`: the provider's own token or step limit cut the generation short: `limit`;
 * 3. `verified`: a `done` claim that `verify` confirmed stops as `success`;
 * 4. `gave_up`: a `give_up` signal stops as `gave_up`;
 * 5. `need_help`: a `need_help` signal that no person answered stops as
 *    `need_help` (with `onHumanTimeout: 'continue'`, only when nobody could be asked);
 * 6. the budget (`budgetRules`), checked on the event of step 0 before the first turn too;
 * 7. `not_verified`: a rejected `done` claim is a `retry` (the agent is told the unmet criteria);
 * 8. anything else goes on (no rule fires).
 */
export function agentLoopPolicy(limits: BudgetLimits, onHumanTimeout: HumanTimeoutPolicy = 'stop'): StopPolicyDocument {
  const unanswered: RuleCondition[] = [{ not: { human: 'answered' } }];
  if (onHumanTimeout === 'continue') unanswered.push({ not: { human: 'timed_out' } });
  return parseStopPolicy({
    version: STOP_POLICY_VERSION,
    name: 'agent-loop',
    rules: [
      { id: 'provider_failed', when: { provider: 'failed' }, then: { kind: 'stop', exit: 'failed', reason: 'provider_failed' } },
      { id: 'provider_limit', when: { any: [{ provider: 'token_limit' }, { provider: 'step_limit' }] }, then: { kind: 'stop', exit: 'limit', reason: 'provider_limit' } },
      { id: 'verified', when: { verification: 'passed' }, then: { kind: 'stop', exit: 'success', reason: 'verified' } },
      { id: 'gave_up', when: { signal: 'give_up' }, then: { kind: 'stop', exit: 'gave_up', reason: 'gave_up' } },
      { id: 'need_help', when: { all: [{ signal: 'need_help' }, ...unanswered] }, then: { kind: 'stop', exit: 'need_help', reason: 'need_help' } },
      ...budgetRules(limits),
      { id: 'not_verified', when: { verification: 'failed' }, then: { kind: 'retry', reason: 'not_verified' } },
    ],
  });
}

/**
 * The budget a policy sets, as `BudgetLimits`: the smallest `max` of each
 * limit that a rule stops on by itself (a rule whose `when` is one `limit`
 * condition and whose `then` is a stop). A limit inside a combination is a
 * judgement, not a budget, and is left out. `runAgentLoop` reads it to tell
 * each turn what is left, to flag the wrap-up turns and to cap the wait for a
 * person at the wall clock left.
 */
export function policyBudgetLimits(policy: StopPolicyDocument): BudgetLimits {
  const { document } = compileStopPolicy(policy);
  const limits: { -readonly [K in keyof BudgetLimits]?: number } = {};
  for (const rule of document.rules) {
    if (rule.then.kind !== 'stop' || !('limit' in rule.when)) continue;
    const { of, max } = rule.when.limit;
    const entry = BUDGET_LIMITS.find(([, name]) => name === of);
    if (entry === undefined) continue;
    const key = entry[0];
    limits[key] = Math.min(limits[key] ?? Infinity, max);
  }
  return limits;
}
