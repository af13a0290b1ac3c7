import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { decide, needsJudgement } from '../../../src/core/policy/decide.js';
import { eventDigest } from '../../../src/core/policy/event-digest.js';
import { HOOK_RULE_IDS, HOOK_STOP_POLICY, hookStopPolicy } from '../../../src/core/policy/hook-stop-policy.js';
import { parseStopPolicy } from '../../../src/core/policy/parse-stop-policy.js';
import type { StopEvent } from '../../../src/core/policy/stop-event.js';
import { isStopPolicyDocumentShape, parseStopPolicyAt, policyTaskTypes } from '../../../src/core/policy/stop-policy-shape.js';
import { initialStopState } from '../../../src/core/policy/stop-state.js';
import { createStopPolicy } from '../../../src/core/stop-policy.js';

const schema = JSON.parse(readFileSync(join(import.meta.dirname, '../../../schemas/stop-policy.schema.json'), 'utf8')) as object;
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);
const red = { passed: false, failed: ['a > b'], ran: 2 };
const green = { passed: true, failed: [], ran: 2 };
const none = { passed: false, failed: [], ran: 0 };
const stop = { kind: 'stop', exit: 'success', reason: 'ok' } as const;
const one = (when: unknown) => ({ version: 1, rules: [{ id: 'r', when, then: stop }] });

describe('HOOK_STOP_POLICY', () => {
  it('is a document the schema and the parser accept, with the rules in the table order', () => {
    expect(validate(HOOK_STOP_POLICY), JSON.stringify(validate.errors)).toBe(true);
    expect(parseStopPolicy(JSON.parse(JSON.stringify(HOOK_STOP_POLICY)))).toEqual(HOOK_STOP_POLICY);
    expect(HOOK_STOP_POLICY.rules.map((rule) => rule.id)).toEqual(HOOK_RULE_IDS);
    expect(validate(hookStopPolicy(createStopPolicy({ maxSteps: 4 }), { maxConsecutiveBlocks: 3 }))).toBe(true);
    expect(() => hookStopPolicy(undefined, { maxConsecutiveBlocks: 0 })).toThrow(RangeError);
  });

  it('asks for the decision model only where the table does', () => {
    const at = (event: Omit<StopEvent, 'step'>, state = initialStopState(HOOK_STOP_POLICY)) => needsJudgement(HOOK_STOP_POLICY, state, { step: state.step + 1, ...event });
    expect(at({ tests: green })).toBe(true);
    expect(at({ tests: red })).toBe(true);
    expect(at({ tests: none })).toBe(false);
    expect(at({ tests: red, reentered: true })).toBe(false);
    expect(at({ tests: green, reentered: true })).toBe(false);
    expect(at({ tests: green, judge: 'none' })).toBe(false);
  });

  it('blocks once per span and hands off after, counting blocks with the retries of the state', () => {
    const policy = hookStopPolicy(undefined, { maxConsecutiveBlocks: 2 });
    let state = initialStopState(policy);
    const decisions = [1, 2, 3].map((step) => {
      const result = decide(policy, state, { step, tests: none, output: `attempt ${step}`, reentered: true });
      state = result.state;
      return `${result.decision.kind}:${result.decision.rule}`;
    });
    // With two blocks allowed the host's flag does not count: the state's own count does.
    expect(decisions).toEqual(['retry:no_tests_ran', 'retry:no_tests_ran', 'stop:no_tests_after_block']);
  });

  it('tells a model that could not be asked from one that was not, and never blocks on it alone', () => {
    const decided = (event: Omit<StopEvent, 'step'>) => decide(HOOK_STOP_POLICY, initialStopState(HOOK_STOP_POLICY), { step: 1, ...event }).decision;
    expect(decided({ tests: green, judge: 'unavailable' })).toMatchObject({ kind: 'stop', exit: 'need_help', rule: 'judge_unavailable' });
    expect(decided({ tests: green, judge: 'none' })).toMatchObject({ kind: 'stop', exit: 'success', rule: 'tests_passed_unjudged' });
    expect(decided({ tests: red, judge: 'unavailable' })).toMatchObject({ kind: 'retry', rule: 'tests_failed', values: { judge: 'unavailable' } });
    expect(decided({ tests: red, probabilities: { a: 0.9 } })).toMatchObject({ kind: 'stop', rule: 'evidence_contradicts_model' });
    expect(decided({ tests: green, probabilities: { a: 0.5 } })).toMatchObject({ kind: 'retry', rule: 'criteria_below_threshold', values: { belowProbability: 0.7 } });
  });
});

describe('the judge, reentered and taskType conditions', () => {
  it('parse, validate against the schema, and refuse bad bodies naming the path', () => {
    for (const when of [{ judge: 'answered' }, { judge: 'unavailable' }, { judge: 'none' }, { reentered: true }, { taskType: 'bugfix' }]) {
      expect(parseStopPolicy(one(when)).rules[0]?.when).toEqual(when);
      expect(validate(one(when))).toBe(true);
    }
    for (const [when, message] of [
      [{ judge: 'down' }, /^rules\[0\]\.when\.judge: must be one of answered, unavailable, none, got "down"$/],
      [{ reentered: false }, /^rules\[0\]\.when\.reentered: must be true/],
      [{ taskType: '' }, /^rules\[0\]\.when\.taskType: must be a non-empty task type name/],
    ] as const) {
      expect(() => parseStopPolicy(one(when))).toThrow(message);
      expect(validate(one(when))).toBe(false);
    }
  });

  it('read the event, and a criteria condition with no model to wait for does not hold instead of waiting', () => {
    const policy = parseStopPolicy({
      version: 1,
      rules: [
        { id: 'typed', when: { all: [{ taskType: 'bugfix' }, { reentered: true }] }, then: { kind: 'stop', exit: 'need_help', reason: 'x' } },
        { id: 'judged', when: { criteria: { gte: 0.5 } }, then: stop },
        { id: 'fallback', when: { always: true }, then: { kind: 'retry', reason: 'again' } },
      ],
    });
    const state = initialStopState(policy);
    expect(decide(policy, state, { step: 1, taskType: 'bugfix', reentered: true }).decision.rule).toBe('typed');
    expect(needsJudgement(policy, state, { step: 1, taskType: 'feature' })).toBe(true);
    const unjudged = decide(policy, state, { step: 1, taskType: 'feature', judge: 'unavailable' }).decision;
    expect(unjudged.rule).toBe('fallback');
    expect(unjudged.trace[1]).toEqual({ rule: 'judged', unmet: { condition: 'criteria.lowest', actual: 'decision model unavailable', relation: '' } });
    expect(unjudged.trace[0]?.unmet).toEqual({ condition: 'all[0].taskType.bugfix', actual: 'feature', relation: ', not bugfix' });
  });

  it('refuses malformed event fields, and the digest tells events that differ in them apart', () => {
    const policy = HOOK_STOP_POLICY;
    const state = initialStopState(policy);
    expect(() => decide(policy, state, { step: 1, tests: green, judge: 'down' as never })).toThrow(/event\.judge must be "unavailable" or "none"/);
    expect(() => decide(policy, state, { step: 1, tests: green, judge: 'none', probabilities: { a: 1 } })).toThrow(/give one or the other/);
    expect(() => decide(policy, state, { step: 1, tests: green, reentered: 'yes' as never })).toThrow(/event\.reentered must be a boolean/);
    expect(() => decide(policy, state, { step: 1, tests: green, taskType: '' })).toThrow(/event\.taskType must be a non-empty string/);
    const digests = new Set(
      [{}, { judge: 'none' }, { judge: 'unavailable' }, { reentered: true }, { reentered: false }, { taskType: 'a' }].map((extra) => eventDigest({ step: 1, ...extra } as StopEvent, 'f')),
    );
    expect(digests.size).toBe(6);
  });
});

describe('stop policy shapes', () => {
  it('tells a document from four numbers and names the whole path of an error', () => {
    expect(isStopPolicyDocumentShape({ version: 1, rules: [] })).toBe(true);
    expect(isStopPolicyDocumentShape({ doneThreshold: 0.8 })).toBe(false);
    expect(isStopPolicyDocumentShape(null)).toBe(false);
    expect(parseStopPolicyAt('policy', one({ tests: 'broken' }))).toEqual({
      ok: false,
      message: 'policy.rules[0].when.tests: must be one of no_tests_ran, failed, passed, fresh, stale, got "broken"',
    });
    expect(parseStopPolicyAt('policy', { version: 2, rules: [] })).toMatchObject({ ok: false, message: /^policy\.version: must be 1/ });
    expect(parseStopPolicyAt('', one({ always: true }))).toMatchObject({ ok: true });
  });

  it('lists the task types a document reads', () => {
    const policy = parseStopPolicy({
      version: 1,
      rules: [
        { id: 'a', when: { all: [{ taskType: 'bugfix' }, { not: { taskType: 'docs' } }] }, then: stop },
        { id: 'b', when: { atLeast: { count: 1, of: [{ any: [{ taskType: 'feature' }] }] } }, then: stop },
      ],
    });
    expect(policyTaskTypes(policy)).toEqual(['bugfix', 'docs', 'feature']);
    expect(policyTaskTypes(HOOK_STOP_POLICY)).toEqual([]);
  });
});
