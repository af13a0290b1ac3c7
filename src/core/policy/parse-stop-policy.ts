import { describeValue } from '../describe-value.js';
import { formatPath, schemaProblems, type SchemaProblem } from '../schema-issues.js';
import { STOP_POLICY_VERSION, type StopPolicyDocument } from './stop-policy-document.js';
import { stopPolicySchema } from './stop-policy-schema.js';
import { StopPolicyError } from './stop-policy-error.js';

/**
 * Validates a parsed JSON value as a stop policy document and returns it
 * deep-frozen. Throws a {@link StopPolicyError} that lists every problem with
 * its JSON path and, for a misspelt name, the nearest known one: an unknown
 * field, condition or outcome, a threshold outside [0, 1], `atLeast` with a
 * count above its conditions, a duplicate rule id. A policy is never
 * half-applied.
 *
 * @example
 * const policy = parseStopPolicy(JSON.parse(text));
 * // StopPolicyError: rules[0].thn: unknown field (did you mean "then"?)
 * //                  rules[1].when.tests: must be one of "no_tests_ran", "failed", ... got "faild" (did you mean "failed"?)
 */
export function parseStopPolicy(value: unknown): StopPolicyDocument {
  const checked = checkStopPolicy(value);
  if (!checked.ok) throw new StopPolicyError(checked.problems);
  return checked.policy;
}

/** The documents this module returned: frozen and valid, so they are not parsed again (a hook parses on every run). */
const validated = new WeakSet<object>();

/** One pass of the schema over `value`: the frozen document, or every problem. */
function checkStopPolicy(value: unknown): { readonly ok: true; readonly policy: StopPolicyDocument } | { readonly ok: false; readonly problems: SchemaProblem[] } {
  if (typeof value === 'object' && value !== null && validated.has(value)) return { ok: true, policy: value as StopPolicyDocument };
  const early = shapeProblems(value);
  if (early.length > 0) return { ok: false, problems: early };
  const parsed = stopPolicySchema.safeParse(value, { reportInput: true });
  if (!parsed.success) return { ok: false, problems: schemaProblems(stopPolicySchema, parsed.error.issues, value) };
  const policy = deepFreeze(parsed.data);
  validated.add(policy);
  return { ok: true, policy };
}

/** Every problem of `value` as a policy document (none: it is one). */
export function stopPolicyProblems(value: unknown): SchemaProblem[] {
  const checked = checkStopPolicy(value);
  return checked.ok ? [] : checked.problems;
}

/** What is wrong before the schema is worth running: not an object, or the format of 0.1. */
function shapeProblems(value: unknown): SchemaProblem[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [{ path: '', message: `a stop policy must be an object { version, rules }, got ${describeValue(value)}` }];
  }
  const version = (value as Record<string, unknown>).version;
  if (version === 1) {
    return [
      {
        path: 'version',
        message:
          `version 1 is the format of stopwise 0.1; version ${STOP_POLICY_VERSION} names the decision model the same way everywhere: ` +
          'rename the condition "judge" to "decisionModel" and the limits "judgeCalls" and "judgeCost" to "decisionModelCalls" and "decisionModelCost", then set "version": 2',
      },
    ];
  }
  return [];
}

/**
 * `parseStopPolicy` for a document found at `at` in a larger JSON value (a
 * configuration's `policy`): the problems name the whole path
 * (`policy.rules[2].when.tests`). Never throws.
 */
export function parseStopPolicyAt(at: readonly PropertyKey[], value: unknown): { ok: true; policy: StopPolicyDocument } | { ok: false; problems: SchemaProblem[] } {
  const checked = checkStopPolicy(value);
  if (checked.ok) return checked;
  const prefix = formatPath(at);
  return { ok: false, problems: checked.problems.map((problem) => ({ path: problem.path === '' ? prefix : problem.path.startsWith('[') ? `${prefix}${problem.path}` : `${prefix}.${problem.path}`, message: problem.message })) };
}

/**
 * True when `value` has the shape of a stop policy document (an object with
 * `rules`), as opposed to the four numbers of a preset: where a file or a
 * configuration takes either, the shape tells them apart.
 */
export function isStopPolicyDocumentShape(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, 'rules');
}

/**
 * A document this library builds from numbers it has already checked (the
 * seed and hook presets): frozen and taken as valid without a pass of the
 * schema, which costs a hook process several milliseconds on every run. Only
 * for builders whose every output the tests parse with the schema.
 */
export function presetStopPolicy(document: StopPolicyDocument): StopPolicyDocument {
  const policy = deepFreeze(document);
  validated.add(policy);
  return policy;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
