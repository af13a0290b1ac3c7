import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hookStopPolicy } from '../../../src/core/policy/hook-stop-policy.js';
import { isStopPolicyDocumentShape, parseStopPolicy, parseStopPolicyAt } from '../../../src/core/policy/parse-stop-policy.js';
import { SEED_STOP_POLICY, seedStopPolicy } from '../../../src/core/policy/seed-stop-policy.js';
import type { StopPolicyDocument } from '../../../src/core/policy/stop-policy-document.js';
import { stopPolicy } from '../arbitraries.js';
import { StopPolicyError } from '../../../src/core/policy/stop-policy-error.js';

const rule = (when: unknown, then: unknown = { kind: 'stop', exit: 'success', reason: 'ok' }, id = 'r') => ({ id, when, then });
const policy = (...rules: unknown[]) => ({ version: 2, rules });

function errorOf(value: unknown): StopPolicyError {
  try {
    parseStopPolicy(value);
  } catch (error) {
    expect(StopPolicyError.isInstance(error)).toBe(true);
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
    expect(error.path).toBe('rules[3].when.all[1].atLeast.count');
    expect(error.message).toBe('rules[3].when.all[1].atLeast.count: must not exceed the number of conditions in "of"');
    expect(errorOf(policy(rule({ atLeast: { count: 0, of: [{ always: true }] } }))).message).toBe('rules[0].when.atLeast.count: must be at least 1, got 0');
  });

  it('refuses an unknown field, condition or outcome, naming where and the nearest name', () => {
    expect(errorOf({ ...policy(rule({ always: true })), rulez: [] }).message).toBe('rulez: unknown field (did you mean "rules"?)');
    expect(errorOf(policy({ ...rule({ always: true }), priority: 1 })).message).toBe('rules[0].priority: unknown field; expected one of id, description, when, then');
    expect(errorOf(policy(rule({ testz: 'failed' }))).message).toBe('rules[0].when.testz: unknown condition (did you mean "tests"?)');
    expect(errorOf(policy(rule({ thn: 1 }))).message).toMatch(/^rules\[0\]\.when\.thn: unknown condition; a condition is one of all, any, not, atLeast, always, limit, tests/);
    expect(errorOf(policy(rule({ tests: 'failed', signal: 'done' }))).message).toMatch(/^rules\[0\]\.when: a condition has exactly one key naming its kind \(one of all, .*\), got "tests", "signal"$/);
    expect(errorOf(policy(rule({ tests: 'broken' }))).message).toBe('rules[0].when.tests: must be one of "no_tests_ran", "failed", "passed", "fresh", "stale", got "broken"');
    expect(errorOf(policy(rule({ tests: 'faild' }))).message).toMatch(/got "faild" \(did you mean "failed"\?\)$/);
    expect(errorOf(policy(rule({ always: true }, { kind: 'halt' }))).message).toBe('rules[0].then.kind: must be one of "continue", "retry", "stop", got "halt"');
    expect(errorOf(policy(rule({ always: true }, { kind: 'stop', exit: 'done', reason: 'x' }))).message).toBe(
      'rules[0].then.exit: must be one of "success", "limit", "gave_up", "need_help", "failed", got "done"',
    );
    expect(errorOf(policy(rule({ always: true }, { kind: 'retry' }))).message).toBe('rules[0].then.reason: required (a string)');
    expect(errorOf(policy(rule({ limit: { of: 'steps', max: 20, per: 'run' } }))).message).toBe('rules[0].when.limit.per: unknown field; expected one of of, max');
    expect(errorOf(policy(rule({ limit: { of: 'dollars', max: 2 } }))).path).toBe('rules[0].when.limit.of');
    expect(errorOf(policy(rule({ provider: 'timeout' }))).message).toBe('rules[0].when.provider: must be one of "token_limit", "step_limit", "failed", got "timeout"');
    expect(errorOf(policy(rule({ decisionModel: 'down' }))).message).toBe('rules[0].when.decisionModel: must be one of "answered", "unavailable", "none", got "down"');
  });

  it('refuses a threshold outside [0, 1], a band upside down and a fractional step cap', () => {
    expect(errorOf(policy(rule({ criteria: { gte: 1.5 } }))).message).toBe('rules[0].when.criteria.gte: must be at most 1, got 1.5');
    expect(errorOf(policy(rule({ not: { criteria: { criterion: 'a', lt: -0.1 } } }))).message).toBe('rules[0].when.not.criteria.lt: must be at least 0, got -0.1');
    expect(errorOf(policy(rule({ criteria: { within: [0.7, 0.4] } }))).message).toBe('rules[0].when.criteria.within: low is above high');
    expect(errorOf(policy(rule({ criteria: { gte: 0.5, lt: 0.7 } }))).message).toBe('rules[0].when.criteria: needs exactly one of gte, lt, within, got gte, lt');
    expect(errorOf(policy(rule({ limit: { of: 'steps', max: 2.5 } }))).message).toBe('rules[0].when.limit.max: a step cap must be a whole number of steps');
    expect(parseStopPolicy(policy(rule({ limit: { of: 'steps', max: 0 } }))).rules[0]?.when).toEqual({ limit: { of: 'steps', max: 0 } });
  });

  it('refuses a duplicate rule id, naming both', () => {
    expect(errorOf(policy(rule({ always: true }, undefined, 'x'), rule({ always: true }, undefined, 'x'))).message).toBe(
      'rules[1].id: duplicate rule id "x" (also rules[0].id)',
    );
  });

  it('lists every problem at once, the first as the error path', () => {
    const error = errorOf({ version: 2, rules: [{ id: 'r', when: { tests: 'faild' }, thn: { kind: 'continue' } }, rule({ criteria: { gte: 2 } })] });
    expect(error.problems).toEqual([
      { path: 'rules[0].when.tests', message: 'must be one of "no_tests_ran", "failed", "passed", "fresh", "stale", got "faild" (did you mean "failed"?)' },
      { path: 'rules[0].then', message: 'required (an object)' },
      { path: 'rules[0].thn', message: 'unknown field (did you mean "then"?)' },
      { path: 'rules[1].when.criteria.gte', message: 'must be at most 1, got 2' },
    ]);
    expect(error.path).toBe('rules[0].when.tests');
    expect(error.message.split('\n')).toHaveLength(4);
    expect(error).toBeInstanceOf(TypeError);
    expect(error.name).toBe('StopPolicyError');
  });

  it('refuses the wrong version, no rules, and a stall window that is not a positive integer', () => {
    expect(errorOf({ version: 3, rules: [] }).problems).toEqual([
      { path: 'version', message: 'must be 2, got 3' },
      { path: 'rules', message: 'must hold at least 1 item, got an array' },
    ]);
    expect(errorOf({ version: 2, rules: [] }).path).toBe('rules');
    expect(errorOf(null).message).toBe('a stop policy must be an object { version, rules }, got null');
    expect(errorOf(policy(rule({ stall: { detector: 'identical_fingerprints', rounds: 1.5 } }))).message).toBe('rules[0].when.stall.rounds: expected an integer, got 1.5');
    expect(errorOf(policy(rule({ stall: { detector: 'same_call', rounds: 3 } }))).path).toBe('rules[0].when.stall.detector');
  });

  it('tells how to move a version 1 document (stopwise 0.1) to version 2', () => {
    const error = errorOf({ version: 1, rules: [rule({ judge: 'none' }), rule({ limit: { of: 'judgeCalls', max: 2 } })] });
    expect(error.problems).toHaveLength(1);
    expect(error.path).toBe('version');
    expect(error.message).toMatch(/version 1 is the format of stopwise 0\.1/);
    expect(error.message).toMatch(/rename the condition "judge" to "decisionModel" and the limits "judgeCalls" and "judgeCost" to "decisionModelCalls" and "decisionModelCost", then set "version": 2/);
  });
});

describe('parseStopPolicyAt', () => {
  it('returns the policy frozen, or every problem with the whole path, and never throws', () => {
    const parsed = parseStopPolicyAt(['policy'], policy(rule({ always: true })));
    expect(parsed).toEqual({ ok: true, policy: policy(rule({ always: true })) });
    expect(parsed.ok && Object.isFrozen(parsed.policy.rules)).toBe(true);
    expect(parseStopPolicyAt(['policy'], policy(rule({ tests: 'faild' }), rule({ criteria: { gte: 2 } })))).toEqual({
      ok: false,
      problems: [
        { path: 'policy.rules[0].when.tests', message: 'must be one of "no_tests_ran", "failed", "passed", "fresh", "stale", got "faild" (did you mean "failed"?)' },
        { path: 'policy.rules[1].when.criteria.gte', message: 'must be at most 1, got 2' },
      ],
    });
    expect(parseStopPolicyAt(['hosts', 0, 'policy'], 5)).toEqual({
      ok: false,
      problems: [{ path: 'hosts[0].policy', message: 'a stop policy must be an object { version, rules }, got 5' }],
    });
  });
});

describe('isStopPolicyDocumentShape', () => {
  it('tells a document (own rules) from the four numbers of a preset', () => {
    expect(isStopPolicyDocumentShape({ version: 2, rules: [] })).toBe(true);
    expect(isStopPolicyDocumentShape({ rules: 1 })).toBe(true);
    expect(isStopPolicyDocumentShape({ maxSteps: 3 })).toBe(false);
    expect(isStopPolicyDocumentShape([])).toBe(false);
    expect(isStopPolicyDocumentShape(null)).toBe(false);
    expect(isStopPolicyDocumentShape(Object.create({ rules: [] }))).toBe(false);
  });
});

describe('presetStopPolicy', () => {
  // The presets are taken as valid without a pass of the schema: every one they can build must pass it.
  const reparsed = (document: StopPolicyDocument) => parseStopPolicy(JSON.parse(JSON.stringify(document)));

  it('takes only documents the schema accepts: the seed and hook presets for any numbers (property)', () => {
    fc.assert(
      fc.property(stopPolicy, fc.integer({ min: 1, max: 6 }), (numbers, blocks) => {
        expect(reparsed(seedStopPolicy(numbers))).toEqual(seedStopPolicy(numbers));
        const hook = hookStopPolicy(numbers, { maxConsecutiveBlocks: blocks });
        expect(reparsed(hook)).toEqual(hook);
      }),
      { numRuns: 60 },
    );
  });

  it('returns a document it made as it is, without parsing it again', () => {
    const once = parseStopPolicy(JSON.parse(JSON.stringify(SEED_STOP_POLICY)));
    expect(parseStopPolicy(once)).toBe(once);
    expect(Object.isFrozen(once.rules[0])).toBe(true);
  });
});
