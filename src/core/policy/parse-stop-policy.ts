import { describeValue } from '../describe-value.js';
import { STOP_EXITS, type StopExit } from '../stop-outcome.js';
import {
  CONDITION_KINDS,
  HUMAN_STATES,
  JUDGE_STATES,
  LIMIT_NAMES,
  SIGNAL_STATES,
  STALL_DETECTORS,
  STOP_POLICY_VERSION,
  TEST_STATES,
  type CriteriaCondition,
  type StopCondition,
  type StopPolicyDocument,
  type StopRule,
  type StepHistoryCondition,
  type StopRuleOutcome,
} from './stop-policy-document.js';
import { StopPolicyError } from './stop-policy-error.js';
import { resolveStallOptions, STALL_OPTION_PATTERN_KEYS, type StallOptionsInput } from '../stall-detection/stall-options.js';
import { STALL_PATTERNS, type StallPattern } from '../stall-detection/stall-pattern.js';

type Json = Record<string, unknown>;

/**
 * Validates a parsed JSON value as a stop policy document and returns it
 * deep-frozen. Throws a {@link StopPolicyError} naming the JSON path and the
 * offending field for an unknown field, condition or outcome, a threshold
 * outside [0, 1], `atLeast` with a count outside [1, n], or a duplicate rule
 * id: a policy is never half-applied.
 *
 * @example
 * const policy = parseStopPolicy(JSON.parse(text));
 * // StopPolicyError: rules[3].when.all[1].atLeast: count must be an integer in [1, 2], got 3
 */
export function parseStopPolicy(value: unknown): StopPolicyDocument {
  const root = expectObject('', value, 'a stop policy');
  onlyKeys('', root, ['$schema', 'version', 'name', 'rules']);
  if (root.version !== STOP_POLICY_VERSION) {
    throw new StopPolicyError('version', `must be ${STOP_POLICY_VERSION}, got ${describeValue(root.version)}`);
  }
  if (root.$schema !== undefined && typeof root.$schema !== 'string') throw new StopPolicyError('$schema', `must be a string, got ${describeValue(root.$schema)}`);
  if (root.name !== undefined && typeof root.name !== 'string') throw new StopPolicyError('name', `must be a string, got ${describeValue(root.name)}`);
  if (!Array.isArray(root.rules) || root.rules.length === 0) {
    throw new StopPolicyError('rules', `must be a non-empty array of rules, got ${describeValue(root.rules)}`);
  }
  const seen = new Map<string, number>();
  const rules = root.rules.map((rule, index) => parseRule(`rules[${index}]`, rule, seen, index));
  const document: StopPolicyDocument = {
    ...(root.$schema === undefined ? {} : { $schema: root.$schema as string }),
    version: STOP_POLICY_VERSION,
    ...(root.name === undefined ? {} : { name: root.name as string }),
    rules,
  };
  return deepFreeze(document);
}

function parseRule(path: string, value: unknown, seen: Map<string, number>, index: number): StopRule {
  const rule = expectObject(path, value, 'a rule { id, when, then }');
  onlyKeys(path, rule, ['id', 'when', 'then', 'description']);
  if (typeof rule.id !== 'string' || rule.id.trim() === '') {
    throw new StopPolicyError(`${path}.id`, `must be a non-empty string, got ${describeValue(rule.id)}`);
  }
  const earlier = seen.get(rule.id);
  if (earlier !== undefined) throw new StopPolicyError(`${path}.id`, `duplicate rule id "${rule.id}" (also rules[${earlier}].id)`);
  seen.set(rule.id, index);
  if (rule.description !== undefined && typeof rule.description !== 'string') {
    throw new StopPolicyError(`${path}.description`, `must be a string, got ${describeValue(rule.description)}`);
  }
  if (rule.when === undefined) throw new StopPolicyError(`${path}.when`, 'is missing: a rule needs a condition ({ "always": true } for a last rule)');
  if (rule.then === undefined) throw new StopPolicyError(`${path}.then`, 'is missing: a rule needs an outcome');
  return {
    id: rule.id,
    when: parseCondition(`${path}.when`, rule.when),
    then: parseOutcome(`${path}.then`, rule.then),
    ...(rule.description === undefined ? {} : { description: rule.description as string }),
  };
}

function parseOutcome(path: string, value: unknown): StopRuleOutcome {
  const outcome = expectObject(path, value, 'an outcome { kind, ... }');
  switch (outcome.kind) {
    case 'continue':
      onlyKeys(path, outcome, ['kind', 'reason']);
      if (outcome.reason === undefined) return { kind: 'continue' };
      return { kind: 'continue', reason: reasonName(`${path}.reason`, outcome.reason) };
    case 'retry':
      onlyKeys(path, outcome, ['kind', 'reason']);
      return { kind: 'retry', reason: reasonName(`${path}.reason`, outcome.reason) };
    case 'stop':
      onlyKeys(path, outcome, ['kind', 'exit', 'reason']);
      oneOf(`${path}.exit`, outcome.exit, STOP_EXITS);
      return { kind: 'stop', exit: outcome.exit as StopExit, reason: reasonName(`${path}.reason`, outcome.reason) };
    default:
      throw new StopPolicyError(`${path}.kind`, `unknown outcome ${describeValue(outcome.kind)}; expected one of continue, retry, stop`);
  }
}

function parseCondition(path: string, value: unknown): StopCondition {
  const condition = expectObject(path, value, 'a condition such as { "tests": "failed" }');
  const keys = Object.keys(condition);
  if (keys.length !== 1) {
    throw new StopPolicyError(path, `a condition has exactly one key naming its kind (one of ${CONDITION_KINDS.join(', ')}), got ${keys.length === 0 ? 'none' : keys.map((key) => `"${key}"`).join(', ')}`);
  }
  const kind = keys[0] as string;
  const body = condition[kind];
  const at = `${path}.${kind}`;
  switch (kind) {
    case 'all':
    case 'any': {
      if (!Array.isArray(body)) throw new StopPolicyError(at, `must be an array of conditions, got ${describeValue(body)}`);
      const children = body.map((child, index) => parseCondition(`${at}[${index}]`, child));
      return kind === 'all' ? { all: children } : { any: children };
    }
    case 'not':
      return { not: parseCondition(at, body) };
    case 'atLeast': {
      const spec = expectObject(at, body, '{ count, of }');
      onlyKeys(at, spec, ['count', 'of']);
      if (!Array.isArray(spec.of) || spec.of.length === 0) throw new StopPolicyError(`${at}.of`, `must be a non-empty array of conditions, got ${describeValue(spec.of)}`);
      const of = spec.of.map((child, index) => parseCondition(`${at}.of[${index}]`, child));
      if (!Number.isInteger(spec.count) || (spec.count as number) < 1 || (spec.count as number) > of.length) {
        throw new StopPolicyError(at, `count must be an integer in [1, ${of.length}], got ${describeValue(spec.count)}`);
      }
      return { atLeast: { count: spec.count as number, of } };
    }
    case 'always':
      if (body !== true) throw new StopPolicyError(at, `must be true, got ${describeValue(body)}`);
      return { always: true };
    case 'limit': {
      const spec = expectObject(at, body, '{ of, max }');
      onlyKeys(at, spec, ['of', 'max']);
      oneOf(`${at}.of`, spec.of, LIMIT_NAMES);
      const max = spec.max;
      if (typeof max !== 'number' || !Number.isFinite(max) || max < 0) throw new StopPolicyError(`${at}.max`, `must be a non-negative finite number, got ${describeValue(max)}`);
      if (spec.of === 'steps' && (!Number.isInteger(max) || max < 1)) throw new StopPolicyError(`${at}.max`, `a step cap must be a positive integer, got ${describeValue(max)}`);
      return { limit: { of: spec.of as (typeof LIMIT_NAMES)[number], max } };
    }
    case 'tests':
      oneOf(at, body, TEST_STATES);
      return { tests: body as (typeof TEST_STATES)[number] };
    case 'check': {
      const spec = expectObject(at, body, '{ name, is }');
      onlyKeys(at, spec, ['name', 'is']);
      if (typeof spec.name !== 'string' || spec.name === '') throw new StopPolicyError(`${at}.name`, `must be a non-empty string, got ${describeValue(spec.name)}`);
      oneOf(`${at}.is`, spec.is, ['passed', 'failed', 'missing'] as const);
      return { check: { name: spec.name, is: spec.is as 'passed' | 'failed' | 'missing' } };
    }
    case 'criteria':
      return { criteria: parseCriteria(at, body) };
    case 'signal':
      oneOf(at, body, SIGNAL_STATES);
      return { signal: body as (typeof SIGNAL_STATES)[number] };
    case 'verification':
      oneOf(at, body, ['passed', 'failed'] as const);
      return { verification: body as 'passed' | 'failed' };
    case 'human':
      oneOf(at, body, HUMAN_STATES);
      return { human: body as (typeof HUMAN_STATES)[number] };
    case 'stall': {
      const spec = expectObject(at, body, '{ detector, ... }');
      oneOf(`${at}.detector`, spec.detector, STALL_DETECTORS);
      if (spec.detector === 'step_history') return { stall: parseStepHistory(at, spec) };
      onlyKeys(at, spec, ['detector', 'rounds']);
      const rounds = spec.rounds;
      if (!Number.isInteger(rounds) || (rounds as number) < 1) {
        throw new StopPolicyError(`${at}.rounds`, `must be a positive integer, got ${describeValue(rounds)}`);
      }
      return { stall: { detector: 'identical_fingerprints', rounds: rounds as number } };
    }
    case 'retries': {
      const spec = expectObject(at, body, '{ atLeast }');
      onlyKeys(at, spec, ['atLeast']);
      if (!Number.isInteger(spec.atLeast) || (spec.atLeast as number) < 1) {
        throw new StopPolicyError(`${at}.atLeast`, `must be a positive integer, got ${describeValue(spec.atLeast)}`);
      }
      return { retries: { atLeast: spec.atLeast as number } };
    }
    case 'judge':
      oneOf(at, body, JUDGE_STATES);
      return { judge: body as (typeof JUDGE_STATES)[number] };
    case 'reentered':
      if (body !== true) throw new StopPolicyError(at, `must be true (use { "not": { "reentered": true } } for the opposite), got ${describeValue(body)}`);
      return { reentered: true };
    case 'taskType':
      if (typeof body !== 'string' || body === '') throw new StopPolicyError(at, `must be a non-empty task type name, got ${describeValue(body)}`);
      return { taskType: body };
    default:
      throw new StopPolicyError(at, `unknown condition "${kind}"; expected one of ${CONDITION_KINDS.join(', ')}`);
  }
}

const STALL_OPTION_KEYS = [...STALL_OPTION_PATTERN_KEYS, 'inferErrors', 'tools'];
/** The fields of each pattern's options. */
const STALL_OPTION_FIELDS: Readonly<Record<string, readonly string[]>> = {
  repeatedResult: ['repeats'],
  repeatedFailingCall: ['repeats'],
  repeatedError: ['repeats', 'infrastructureRepeats'],
  cycle: ['maxPeriod', 'repeats'],
  revisit: ['repeats', 'window'],
  noProgress: ['repeats', 'window'],
  monologue: ['repeats'],
  repeatedCall: ['repeats'],
};

function parseStepHistory(at: string, spec: Json): StepHistoryCondition {
  onlyKeys(at, spec, ['detector', 'patterns', 'options']);
  let patterns: StallPattern[] | undefined;
  if (spec.patterns !== undefined) {
    if (!Array.isArray(spec.patterns) || spec.patterns.length === 0) {
      throw new StopPolicyError(`${at}.patterns`, `must be a non-empty array of stall patterns, got ${describeValue(spec.patterns)}`);
    }
    patterns = spec.patterns.map((pattern, index) => {
      oneOf(`${at}.patterns[${index}]`, pattern, STALL_PATTERNS);
      return pattern;
    });
  }
  let options: StallOptionsInput | undefined;
  if (spec.options !== undefined) {
    const given = expectObject(`${at}.options`, spec.options, 'the stall options { repeatedResult: { repeats }, ... }');
    onlyKeys(`${at}.options`, given, STALL_OPTION_KEYS);
    for (const [key, value] of Object.entries(given)) {
      const known = STALL_OPTION_FIELDS[key];
      if (known !== undefined && typeof value === 'object' && value !== null && !Array.isArray(value)) onlyKeys(`${at}.options.${key}`, value as Json, known);
      if (key === 'tools') {
        const tools = expectObject(`${at}.options.tools`, value, 'an object of tool identities { name: { arguments?, polling? } }');
        for (const [tool, identity] of Object.entries(tools)) onlyKeys(`${at}.options.tools.${tool}`, expectObject(`${at}.options.tools.${tool}`, identity, '{ arguments?, polling? }'), ['arguments', 'polling']);
      }
    }
    // A copy: the policy is frozen, the caller's object is not.
    const copy = structuredClone(given) as StallOptionsInput;
    try {
      resolveStallOptions(copy);
    } catch (error) {
      throw new StopPolicyError(`${at}.options`, (error as Error).message);
    }
    options = copy;
  }
  return { detector: 'step_history', ...(patterns === undefined ? {} : { patterns }), ...(options === undefined ? {} : { options }) };
}

function parseCriteria(at: string, body: unknown): CriteriaCondition {
  const spec = expectObject(at, body, '{ criterion?, gte | lt | within }');
  onlyKeys(at, spec, ['criterion', 'gte', 'lt', 'within']);
  if (spec.criterion !== undefined && (typeof spec.criterion !== 'string' || spec.criterion === '')) {
    throw new StopPolicyError(`${at}.criterion`, `must be a non-empty string (leave it out for the lowest criterion), got ${describeValue(spec.criterion)}`);
  }
  const named = spec.criterion === undefined ? {} : { criterion: spec.criterion as string };
  const comparators = ['gte', 'lt', 'within'].filter((key) => spec[key] !== undefined);
  if (comparators.length !== 1) {
    throw new StopPolicyError(at, `needs exactly one of gte, lt, within, got ${comparators.length === 0 ? 'none' : comparators.join(', ')}`);
  }
  if (spec.gte !== undefined) return { ...named, gte: threshold(`${at}.gte`, spec.gte) };
  if (spec.lt !== undefined) return { ...named, lt: threshold(`${at}.lt`, spec.lt) };
  const band = spec.within;
  if (!Array.isArray(band) || band.length !== 2) throw new StopPolicyError(`${at}.within`, `must be [low, high], got ${describeValue(band)}`);
  const low = threshold(`${at}.within[0]`, band[0]);
  const high = threshold(`${at}.within[1]`, band[1]);
  if (low > high) throw new StopPolicyError(`${at}.within`, `low ${low} is above high ${high}`);
  return { ...named, within: [low, high] };
}

function threshold(path: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new StopPolicyError(path, `must be a probability in [0, 1], got ${describeValue(value)}`);
  }
  return value;
}

function reasonName(path: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new StopPolicyError(path, `must be a non-empty name, got ${describeValue(value)}`);
  return value;
}

function oneOf<T extends string>(path: string, value: unknown, allowed: readonly T[]): asserts value is T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new StopPolicyError(path, `must be one of ${allowed.join(', ')}, got ${describeValue(value)}`);
  }
}

function expectObject(path: string, value: unknown, what: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new StopPolicyError(path, `must be ${what}, got ${describeValue(value)}`);
  }
  return value as Json;
}

function onlyKeys(path: string, record: Json, allowed: readonly string[]): void {
  for (const key of Object.keys(record)) {
    if (!allowed.includes(key)) {
      throw new StopPolicyError(path === '' ? key : `${path}.${key}`, `unknown field; expected one of ${allowed.join(', ')}`);
    }
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
