import type { RuleCondition, StopPolicyDocument } from './stop-policy-document.js';

/** The task types the `taskType` conditions of `policy` name, in document order. */
export function policyTaskTypes(policy: StopPolicyDocument): string[] {
  const found = new Set<string>();
  const walk = (condition: RuleCondition): void => {
    if ('taskType' in condition) found.add(condition.taskType);
    else if ('all' in condition) condition.all.forEach(walk);
    else if ('any' in condition) condition.any.forEach(walk);
    else if ('not' in condition) walk(condition.not);
    else if ('atLeast' in condition) condition.atLeast.of.forEach(walk);
  };
  for (const rule of policy.rules) walk(rule.when);
  return [...found];
}
