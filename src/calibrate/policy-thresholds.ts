import { decide } from '../core/policy/decide.js';
import { parseStopPolicy } from '../core/policy/parse-stop-policy.js';
import type { StopDecision } from '../core/policy/stop-decision.js';
import type { CriteriaCondition, RuleCondition, StopPolicyDocument, StopRule } from '../core/policy/stop-policy-document.js';
import { initialStopState } from '../core/policy/stop-state.js';
import type { TestEvidence } from '../core/test-evidence.js';
import type { ScoredCase } from './labelled-case.js';

/**
 * The criteria thresholds of a policy that calibration chooses: `done`, the
 * bound of the `criteria` comparisons of the rules that stop as `success`
 * (the seed's `doneThreshold`), and `low`, the lower bound of the ones that
 * hand off below a band (the seed's `midBandLow`), when the policy has them.
 */
export interface PolicyThresholds {
  readonly done: number;
  readonly low?: number;
}

/** The evidence of a case without `tests`: judged on its probabilities alone, as if its tests had passed. */
const ASSUMED_PASSING_TESTS: TestEvidence = Object.freeze({ passed: true, failed: Object.freeze([]) as readonly string[], ran: 1 });

/**
 * The thresholds of `policy` that calibration varies, read from its rules: the
 * one bound its success rules compare criteria with (`gte`, or the top of a
 * `within`), and the bound below which its hand-off rules stop (`lt`, or the
 * bottom of a band). Throws a `TypeError` when no success rule compares a
 * criterion, or when they compare several bounds (calibrate one at a time).
 */
export function policyThresholds(policy: StopPolicyDocument): PolicyThresholds {
  const done = new Set<number>();
  const low = new Set<number>();
  for (const rule of policy.rules) {
    if (rule.then.kind !== 'stop') continue;
    for (const comparison of comparisons(rule.when)) {
      if (rule.then.exit === 'success') {
        if (comparison.gte !== undefined) done.add(comparison.gte);
        if (comparison.within !== undefined) done.add(comparison.within[0]);
      } else if (rule.then.exit === 'need_help' && comparison.lt !== undefined) low.add(comparison.lt);
    }
  }
  const [first, ...others] = [...done];
  if (first === undefined) throw new TypeError(`no rule of the policy${name(policy)} stops as success on a criteria comparison: there is no threshold to calibrate`);
  if (others.length > 0) throw new TypeError(`the success rules of the policy${name(policy)} compare criteria at several thresholds (${[...done].join(', ')}): calibrate a policy with one`);
  const lows = [...low].filter((value) => value < first);
  return lows.length === 0 ? { done: first } : { done: first, low: Math.max(...lows) };
}

/**
 * `policy` with its thresholds moved: every criteria bound equal to the found
 * `done` becomes `thresholds.done`, every one equal to the found `low` becomes
 * `thresholds.low` (bands move with them). The rules and their order stay.
 */
export function withThresholds(policy: StopPolicyDocument, found: PolicyThresholds, thresholds: PolicyThresholds): StopPolicyDocument {
  const move = (value: number): number => (value === found.done ? thresholds.done : found.low !== undefined && value === found.low ? (thresholds.low ?? value) : value);
  const rewrite = (condition: RuleCondition): RuleCondition => {
    if ('all' in condition) return { all: condition.all.map(rewrite) };
    if ('any' in condition) return { any: condition.any.map(rewrite) };
    if ('not' in condition) return { not: rewrite(condition.not) };
    if ('atLeast' in condition) return { atLeast: { count: condition.atLeast.count, of: condition.atLeast.of.map(rewrite) } };
    if (!('criteria' in condition)) return condition;
    const { criterion, gte, lt, within } = condition.criteria;
    const named = criterion === undefined ? {} : { criterion };
    const criteria: CriteriaCondition =
      gte !== undefined ? { ...named, gte: move(gte) } : lt !== undefined ? { ...named, lt: move(lt) } : { ...named, within: [move((within as readonly [number, number])[0]), move((within as readonly [number, number])[1])] };
    return { criteria };
  };
  return parseStopPolicy({ ...policy, rules: policy.rules.map((rule): StopRule => ({ ...rule, when: rewrite(rule.when) })) });
}

/**
 * `policy` for a group of cases where nothing was certified: each rule that
 * would stop as success on a criteria comparison hands off instead
 * (`not_certified`), so a run never stops on the decision model's word alone.
 */
export function uncertified(policy: StopPolicyDocument): StopPolicyDocument {
  return parseStopPolicy({
    ...policy,
    rules: policy.rules.map((rule): StopRule =>
      rule.then.kind === 'stop' && rule.then.exit === 'success' && comparisons(rule.when).length > 0
        ? { ...rule, then: { kind: 'stop', exit: 'need_help', reason: 'not_certified' } }
        : rule,
    ),
  });
}

/**
 * What `policy` decides on one labelled case: one event of `decide` with the
 * case's probabilities, its tests (passing tests when it has none) and its
 * task type, from a fresh state (a case is one check outside any loop).
 */
export function decideCase(policy: StopPolicyDocument, labelled: ScoredCase): StopDecision {
  const tests = labelled.tests ?? ASSUMED_PASSING_TESTS;
  return decide(policy, initialStopState(policy), {
    step: 1,
    tests,
    probabilities: labelled.probabilities,
    ...(labelled.taskType === undefined ? {} : { taskType: labelled.taskType }),
  }).decision;
}

/** True for a decision that stops as success; a hand-off is any other stop. */
export function stopsAsDone(decision: StopDecision): boolean {
  return decision.kind === 'stop' && decision.exit === 'success';
}

/** True for a decision that hands the run to a person (a stop that is not a success). */
export function handsOff(decision: StopDecision): boolean {
  return decision.kind === 'stop' && decision.exit !== 'success';
}

function comparisons(condition: RuleCondition): CriteriaCondition[] {
  if ('all' in condition) return condition.all.flatMap(comparisons);
  if ('any' in condition) return condition.any.flatMap(comparisons);
  if ('not' in condition) return comparisons(condition.not);
  if ('atLeast' in condition) return condition.atLeast.of.flatMap(comparisons);
  return 'criteria' in condition ? [condition.criteria] : [];
}

function name(policy: StopPolicyDocument): string {
  return policy.name === undefined ? '' : ` "${policy.name}"`;
}
