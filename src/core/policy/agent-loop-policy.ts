import { assertLimits, type BudgetLimits } from '../budget.js';
import { compileStopPolicy } from './compile-stop-policy.js';
import { parseStopPolicy } from './parse-stop-policy.js';
import { STOP_POLICY_VERSION, type LimitName, type StopCondition, type StopPolicyDocument, type StopRule } from './stop-policy-document.js';

/** What a person's silence means to {@link agentLoopPolicy}: end as `need_help`, or go on without the answer. */
export type HumanTimeoutPolicy = 'stop' | 'continue';

/** The budget limits in the order `checkBudget` reads them, with the engine's counter for each. */
const LIMITS: readonly (readonly [keyof BudgetLimits, LimitName])[] = [
  ['maxSteps', 'steps'],
  ['maxWallClockMs', 'wallClockMs'],
  ['maxInputTokens', 'inputTokens'],
  ['maxOutputTokens', 'outputTokens'],
  ['maxTotalTokens', 'totalTokens'],
  ['maxCost', 'cost'],
  ['maxToolErrors', 'toolErrors'],
];

/**
 * The policy `runAgentLoop` runs with when it is given `limits` and no
 * `policy`: its four exits as rules, first match wins.
 *
 * 1. `verified`: a `done` claim that `verify` confirmed stops as `success`;
 * 2. `gave_up`: a `give_up` signal stops as `gave_up`;
 * 3. `need_help`: a `need_help` signal that no person answered stops as
 *    `need_help` (with `onHumanTimeout: 'continue'`, only when nobody could be asked);
 * 4. one rule per limit that is set, in the order of `checkBudget`
 *    (`maxSteps`, `maxWallClockMs`, `maxInputTokens`, `maxOutputTokens`,
 *    `maxTotalTokens`, `maxCost`, `maxToolErrors`), each stopping as `limit`
 *    with the limit's key as its id and reason;
 * 5. `not_verified`: a rejected `done` claim is a `retry` (the agent is told the unmet criteria);
 * 6. anything else goes on (no rule fires).
 *
 * A step cap is a whole number of steps: a fractional `maxSteps` becomes the
 * next integer (the step at which it is reached), and `maxSteps: 0` has no
 * rule since no step is ever decided (the run ends before its first turn).
 * An infinite limit has no rule.
 *
 * @example
 * const policy = agentLoopPolicy({ maxSteps: 20, maxCost: 2 });
 */
export function agentLoopPolicy(limits: BudgetLimits, onHumanTimeout: HumanTimeoutPolicy = 'stop'): StopPolicyDocument {
  assertLimits(limits);
  const unanswered: StopCondition[] = [{ not: { human: 'answered' } }];
  if (onHumanTimeout === 'continue') unanswered.push({ not: { human: 'timed_out' } });
  const rules: StopRule[] = [
    { id: 'verified', when: { verification: 'passed' }, then: { kind: 'stop', exit: 'success', reason: 'verified' } },
    { id: 'gave_up', when: { signal: 'give_up' }, then: { kind: 'stop', exit: 'gave_up', reason: 'gave_up' } },
    { id: 'need_help', when: { all: [{ signal: 'need_help' }, ...unanswered] }, then: { kind: 'stop', exit: 'need_help', reason: 'need_help' } },
  ];
  for (const [key, of] of LIMITS) {
    const value = limits[key];
    if (value === undefined || value === Infinity) continue;
    const max = of === 'steps' ? Math.ceil(value) : value;
    if (of === 'steps' && max < 1) continue;
    rules.push({ id: key, when: { limit: { of, max } }, then: { kind: 'stop', exit: 'limit', reason: key } });
  }
  rules.push({ id: 'not_verified', when: { verification: 'failed' }, then: { kind: 'retry', reason: 'not_verified' } });
  return parseStopPolicy({ version: STOP_POLICY_VERSION, name: 'agent-loop', rules });
}

/**
 * The budget a policy sets, as `BudgetLimits`: the smallest `max` of each
 * limit that a rule stops on by itself (a rule whose `when` is one `limit`
 * condition and whose `then` is a stop). A limit inside a combination is a
 * judgement, not a budget, and is left out. `runAgentLoop` reads it to tell
 * each turn what is left, to flag the wrap-up turns, to cap the wait for a
 * person at the wall clock left, and to end a run whose budget is spent
 * before its first turn.
 *
 * @example
 * policyBudgetLimits(SEED_STOP_POLICY); // { maxSteps: 25 }
 */
export function policyBudgetLimits(policy: StopPolicyDocument): BudgetLimits {
  const { document } = compileStopPolicy(policy);
  const limits: { -readonly [K in keyof BudgetLimits]?: number } = {};
  for (const rule of document.rules) {
    if (rule.then.kind !== 'stop' || !('limit' in rule.when)) continue;
    const { of, max } = rule.when.limit;
    const entry = LIMITS.find(([, name]) => name === of);
    if (entry === undefined) continue;
    const key = entry[0];
    limits[key] = Math.min(limits[key] ?? Infinity, max);
  }
  return limits;
}
