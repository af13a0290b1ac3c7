import { describe, expect, it } from 'vitest';
import { parseStopPolicy } from '../../../src/core/policy/parse-stop-policy.js';
import { SEED_STOP_POLICY } from '../../../src/core/policy/seed-stop-policy.js';
import { isStopPolicyError, StopPolicyError } from '../../../src/core/policy/stop-policy-error.js';

const rule = (when: unknown, then: unknown = { kind: 'stop', exit: 'success', reason: 'ok' }, id = 'r') => ({ id, when, then });
const policy = (...rules: unknown[]) => ({ version: 1, rules });

function errorOf(value: unknown): StopPolicyError {
  try {
    parseStopPolicy(value);
  } catch (error) {
    expect(isStopPolicyError(error)).toBe(true);
    return error as StopPolicyError;
  }
  throw new Error('expected the policy to be refused');
}

describe('parseStopPolicy', () => {
  it('reads a policy and returns it frozen, equal to its JSON', () => {
    const parsed = parseStopPolicy(JSON.parse(JSON.stringify(SEED_STOP_POLICY)));
    expect(parsed).toEqual(SEED_STOP_POLICY);
    expect(Object.isFrozen(parsed.rules[0]?.then)).toBe(true);
  });

  it('names the JSON path of a count outside [1, n] in atLeast', () => {
    const value = policy(
      rule({ always: true }, undefined, 'a'),
      rule({ always: true }, undefined, 'b'),
      rule({ always: true }, undefined, 'c'),
      rule({ all: [{ tests: 'passed' }, { atLeast: { count: 3, of: [{ tests: 'failed' }, { signal: 'done' }] } }] }, undefined, 'd'),
    );
    const error = errorOf(value);
    expect(error.path).toBe('rules[3].when.all[1].atLeast');
    expect(error.message).toBe('rules[3].when.all[1].atLeast: count must be an integer in [1, 2], got 3');
    expect(errorOf(policy(rule({ atLeast: { count: 0, of: [{ always: true }] } }))).path).toBe('rules[0].when.atLeast');
  });

  it('refuses an unknown field, condition or outcome, naming where', () => {
    expect(errorOf({ ...policy(rule({ always: true })), rulez: [] }).message).toBe('rulez: unknown field; expected one of $schema, version, name, rules');
    expect(errorOf(policy({ ...rule({ always: true }), priority: 1 })).message).toBe('rules[0].priority: unknown field; expected one of id, when, then, description');
    expect(errorOf(policy(rule({ testz: 'failed' }))).message).toMatch(/^rules\[0\]\.when\.testz: unknown condition "testz"; expected one of all, any, not/);
    expect(errorOf(policy(rule({ tests: 'failed', signal: 'done' }))).message).toMatch(/^rules\[0\]\.when: a condition has exactly one key/);
    expect(errorOf(policy(rule({ tests: 'broken' }))).message).toBe(
      'rules[0].when.tests: must be one of no_tests_ran, failed, passed, fresh, stale, got "broken"',
    );
    expect(errorOf(policy(rule({ always: true }, { kind: 'halt' }))).message).toBe('rules[0].then.kind: unknown outcome "halt"; expected one of continue, retry, stop');
    expect(errorOf(policy(rule({ always: true }, { kind: 'stop', exit: 'done', reason: 'x' }))).message).toBe(
      'rules[0].then.exit: must be one of success, limit, gave_up, need_help, failed, got "done"',
    );
    expect(errorOf(policy(rule({ always: true }, { kind: 'retry' }))).path).toBe('rules[0].then.reason');
    expect(errorOf(policy(rule({ limit: { of: 'steps', max: 20, per: 'run' } }))).path).toBe('rules[0].when.limit.per');
    expect(errorOf(policy(rule({ limit: { of: 'dollars', max: 2 } }))).path).toBe('rules[0].when.limit.of');
  });

  it('refuses a threshold outside [0, 1] and a band upside down', () => {
    expect(errorOf(policy(rule({ criteria: { gte: 1.5 } }))).message).toBe('rules[0].when.criteria.gte: must be a probability in [0, 1], got 1.5');
    expect(errorOf(policy(rule({ not: { criteria: { criterion: 'a', lt: -0.1 } } }))).path).toBe('rules[0].when.not.criteria.lt');
    expect(errorOf(policy(rule({ criteria: { within: [0.7, 0.4] } }))).message).toBe('rules[0].when.criteria.within: low 0.7 is above high 0.4');
    expect(errorOf(policy(rule({ criteria: { gte: 0.5, lt: 0.7 } }))).message).toBe('rules[0].when.criteria: needs exactly one of gte, lt, within, got gte, lt');
  });

  it('refuses a duplicate rule id, naming both', () => {
    expect(errorOf(policy(rule({ always: true }, undefined, 'x'), rule({ always: true }, undefined, 'x'))).message).toBe(
      'rules[1].id: duplicate rule id "x" (also rules[0].id)',
    );
  });

  it('refuses the wrong version, no rules, and a stall window that is not a positive integer', () => {
    expect(errorOf({ version: 2, rules: [] }).message).toBe('version: must be 1, got 2');
    expect(errorOf({ version: 1, rules: [] }).path).toBe('rules');
    expect(errorOf(null).message).toBe('must be a stop policy, got null');
    expect(errorOf(policy(rule({ stall: { detector: 'identical_fingerprints', rounds: 1.5 } }))).path).toBe('rules[0].when.stall.rounds');
    expect(errorOf(policy(rule({ stall: { detector: 'same_call', rounds: 3 } }))).path).toBe('rules[0].when.stall.detector');
  });
});
