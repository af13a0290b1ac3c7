import { parseStopPolicy } from '../core/policy/parse-stop-policy.js';
import { readsCriteria } from '../core/policy/policy-reads-criteria.js';
import type { RuleCondition, StopPolicyDocument, StopRule } from '../core/policy/stop-policy-document.js';
import type { CalibrationResult } from './calibrate-thresholds.js';

/** The `$schema` a calibrated policy names: the JSON Schema the project installed with stopwise. */
const SCHEMA = './node_modules/stopwise/schemas/stop-policy.schema.json';

/**
 * A calibration as one stop policy document: the policy's rules in their
 * order, each rule that compares criteria repeated for each task type first
 * (reading `{ taskType }` too, with that task type's thresholds) and then for
 * the cases of no such task type (with the overall thresholds); a rule that
 * compares no criteria stays once. A case of a task type is so decided as
 * that task type's calibration decides it, any other as the overall one. A group where
 * nothing was certified has its success rules on criteria hand off instead
 * (`not_certified`): a run never stops on the decision model's word alone.
 * `decide`, `stopwise replay --policy` and the hook configuration read it.
 */
export function calibratedStopPolicy(result: CalibrationResult): StopPolicyDocument {
  const { alpha, delta, method } = result.settings;
  const note = (certified: boolean): string => `calibrated (alpha ${alpha}, delta ${delta}, ${method})${certified ? '' : ': nothing certified'}`;
  const overall = result.policy;
  const groups = Object.entries(result.byTaskType);
  // The rules for all cases read no case of a task type with rules of its own: a case of one is decided as its own calibration decides it.
  const other: RuleCondition | undefined = groups.length === 0 ? undefined : { not: { any: groups.map(([taskType]) => ({ taskType })) } };
  const rules: StopRule[] = [];
  overall.rules.forEach((rule, index) => {
    if (!readsCriteria(rule.when)) {
      rules.push(rule);
      return;
    }
    for (const [taskType, group] of groups) {
      const own = group.policy.rules[index] as StopRule;
      rules.push({ ...own, id: `${taskType}.${own.id}`, when: { all: [{ taskType }, own.when] }, description: note(group.certified) });
    }
    rules.push({ ...rule, ...(other === undefined ? {} : { when: { all: [other, rule.when] } }), description: note(result.certified) });
  });
  return parseStopPolicy({ $schema: SCHEMA, version: overall.version, name: 'calibrated', rules });
}
