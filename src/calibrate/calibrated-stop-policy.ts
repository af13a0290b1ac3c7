import { seedRules } from '../core/policy/seed-stop-policy.js';
import { parseStopPolicy } from '../core/policy/parse-stop-policy.js';
import { STOP_POLICY_VERSION, type StopPolicyDocument, type StopRule } from '../core/policy/stop-policy-document.js';
import { DEFAULT_POLICY, type StopPolicy } from '../core/stop-policy.js';
import type { CalibrationResult } from './calibrate-thresholds.js';

/** The `$schema` a calibrated policy names: the JSON Schema the package ships. */
const SCHEMA = 'https://unpkg.com/stopwise/schemas/stop-policy.schema.json';

/**
 * A calibration as a stop policy document, the seed preset with the
 * calibrated thresholds: the step cap, the stall and "no tests ran" first;
 * then, for each task type, its own rules (each also reads `{ taskType }`):
 * the seed's judgement rules with the task type's thresholds, or, where the
 * task type certified nothing, a hand-off when its tests pass; then the same
 * for all cases. A threshold that was not certified never lets a run stop as
 * done: the tests then decide retries, and passing tests hand off
 * (`not_certified`). `decide`, `stopwise replay --policy` and the hook
 * configuration read it.
 */
export function calibratedStopPolicy(result: CalibrationResult): StopPolicyDocument {
  const base: StopPolicy = result.policy ?? DEFAULT_POLICY;
  const { alpha, delta, method } = result.settings;
  const note = (certified: boolean) => `calibrated (alpha ${alpha}, delta ${delta}, ${method})${certified ? '' : ': nothing certified'}`;
  const shared = seedRules(base).rules.slice(0, 3);
  const rules: StopRule[] = [...shared];
  for (const [taskType, group] of Object.entries(result.byTaskType)) {
    const own = judgementRules(group.policy, note(group.policy !== null));
    rules.push(...own.map((rule) => ({ ...rule, id: `${taskType}.${rule.id}`, when: { all: [{ taskType }, rule.when] } })));
  }
  rules.push(...judgementRules(result.policy, note(result.policy !== null)));
  return parseStopPolicy({ $schema: SCHEMA, version: STOP_POLICY_VERSION, name: 'calibrated', rules });
}

function judgementRules(policy: StopPolicy | null, description: string): StopRule[] {
  if (policy === null) {
    return [
      { id: 'tests_failed', when: { tests: 'failed' }, then: { kind: 'retry', reason: 'tests_failed' } },
      { id: 'not_certified', when: { tests: 'passed' }, then: { kind: 'stop', exit: 'need_help', reason: 'not_certified' }, description },
    ];
  }
  return seedRules(policy).rules.slice(3).map((rule) => (rule.id === 'tests_and_criteria_passed' ? { ...rule, description } : rule));
}
