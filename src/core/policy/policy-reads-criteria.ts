import { compileStopPolicy } from './compile-stop-policy.js';
import type { RuleCondition, StopPolicyDocument } from './stop-policy-document.js';

/**
 * True when a rule of `policy` compares criterion probabilities (a
 * `criteria` condition anywhere in its `when`): a driver of such a policy
 * needs a decision model to ask when `needsJudgement` says so.
 */
export function policyReadsCriteria(policy: StopPolicyDocument): boolean {
  return policyRulesWith(policy, 'criteria').length > 0;
}

/** The ids of the rules of `policy` with a condition of kind `kind` (such as `criteria` or `decisionModel`) anywhere in their `when`. */
export function policyRulesWith(policy: StopPolicyDocument, kind: string): string[] {
  return compileStopPolicy(policy)
    .document.rules.filter((rule) => hasCondition(rule.when, kind))
    .map((rule) => rule.id);
}

/** True when `condition` compares criterion probabilities somewhere (a `criteria` condition anywhere in it). */
export function readsCriteria(condition: RuleCondition): boolean {
  return hasCondition(condition, 'criteria');
}

function hasCondition(condition: RuleCondition, kind: string): boolean {
  if (kind in condition) return true;
  if ('all' in condition) return condition.all.some((part) => hasCondition(part, kind));
  if ('any' in condition) return condition.any.some((part) => hasCondition(part, kind));
  if ('not' in condition) return hasCondition(condition.not, kind);
  if ('atLeast' in condition) return condition.atLeast.of.some((part) => hasCondition(part, kind));
  return false;
}
