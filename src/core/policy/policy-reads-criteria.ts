import { compileStopPolicy } from './compile-stop-policy.js';
import type { RuleCondition, StopPolicyDocument } from './stop-policy-document.js';

/**
 * True when a rule of `policy` compares criterion probabilities (a
 * `criteria` condition anywhere in its `when`): a driver of such a policy
 * needs a decision model to ask when `needsJudgement` says so.
 */
export function policyReadsCriteria(policy: StopPolicyDocument): boolean {
  return compileStopPolicy(policy).document.rules.some((rule) => readsCriteria(rule.when));
}

/** True when `condition` compares criterion probabilities somewhere (a `criteria` condition anywhere in it). */
export function readsCriteria(condition: RuleCondition): boolean {
  if ('criteria' in condition) return true;
  if ('all' in condition) return condition.all.some(readsCriteria);
  if ('any' in condition) return condition.any.some(readsCriteria);
  if ('not' in condition) return readsCriteria(condition.not);
  if ('atLeast' in condition) return condition.atLeast.of.some(readsCriteria);
  return false;
}
