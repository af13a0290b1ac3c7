import { parseStopPolicy } from './parse-stop-policy.js';
import type { StopCondition, StopPolicyDocument } from './stop-policy-document.js';
import { isStopPolicyError } from './stop-policy-error.js';

/**
 * True when `value` has the shape of a stop policy document (an object with
 * `rules`), as opposed to a `StopPolicy` of four numbers or a calibration
 * file: where a file or a configuration takes either, the shape tells them
 * apart, and `parseStopPolicy` then checks it.
 */
export function isStopPolicyDocumentShape(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, 'rules');
}

/**
 * `parseStopPolicy` for a document found at `at` in a larger JSON value (a
 * configuration's `policy`, a file): the error names the whole path
 * (`policy.rules[2].when.tests`). Never throws a `StopPolicyError`.
 */
export function parseStopPolicyAt(at: string, value: unknown): { ok: true; policy: StopPolicyDocument } | { ok: false; message: string } {
  try {
    return { ok: true, policy: parseStopPolicy(value) };
  } catch (error) {
    if (!isStopPolicyError(error)) throw error;
    const path = at === '' ? error.path : error.path === '' ? at : `${at}.${error.path}`;
    const problem = error.path === '' ? error.message : error.message.slice(error.path.length + 2);
    return { ok: false, message: path === '' ? problem : `${path}: ${problem}` };
  }
}

/** The task types the `taskType` conditions of `policy` name, in document order. */
export function policyTaskTypes(policy: StopPolicyDocument): string[] {
  const found = new Set<string>();
  const walk = (condition: StopCondition): void => {
    if ('taskType' in condition) found.add(condition.taskType);
    else if ('all' in condition) condition.all.forEach(walk);
    else if ('any' in condition) condition.any.forEach(walk);
    else if ('not' in condition) walk(condition.not);
    else if ('atLeast' in condition) condition.atLeast.of.forEach(walk);
  };
  for (const rule of policy.rules) walk(rule.when);
  return [...found];
}
