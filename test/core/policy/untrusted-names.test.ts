import { describe, expect, it } from 'vitest';
import { decide, needsJudgement } from '../../../src/core/policy/decide.js';
import { parseStopPolicy } from '../../../src/core/policy/parse-stop-policy.js';
import type { RuleCondition } from '../../../src/core/policy/stop-policy-document.js';
import { initialStopState } from '../../../src/core/policy/stop-state.js';

const success = (when: unknown) =>
  parseStopPolicy({ version: 1, rules: [{ id: 'ok', when, then: { kind: 'stop', exit: 'success', reason: 'ok' } }] });
const PASS = { passed: true, failed: [], ran: 3 };

describe('conditions on what an event does not carry', () => {
  it('reads a check only from the event own names, never from Object.prototype', () => {
    for (const name of ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__']) {
      const policy = success({ check: { name, is: 'passed' } });
      expect(decide(policy, initialStopState(policy), { step: 1, checks: {} }).decision.kind).toBe('continue');
      const missing = success({ check: { name, is: 'missing' } });
      expect(decide(missing, initialStopState(missing), { step: 1, checks: {} }).decision.kind).toBe('stop');
    }
  });

  it('treats a named criterion the model did not answer as unknown, so not() cannot turn it into success', () => {
    const policy = success({ all: [{ tests: 'passed' }, { not: { criteria: { criterion: 'security', lt: 0.9 } } }] } satisfies RuleCondition);
    const state = initialStopState(policy);
    const event = { step: 1, tests: PASS, probabilities: { other: 0.1 } };
    expect(needsJudgement(policy, state, event)).toBe(true);
    expect(() => decide(policy, state, event)).toThrow('rule "ok" reads all[1].not.criteria.security, which the probabilities of event 1 do not answer');
    expect(decide(policy, state, { ...event, probabilities: { security: 0.95 } }).decision.kind).toBe('stop');
  });

  it('counts evidence as stale unless it is shown to be taken on the event tree', () => {
    const policy = success({ all: [{ tests: 'passed' }, { not: { tests: 'stale' } }] });
    const state = initialStopState(policy);
    expect(decide(policy, state, { step: 1, tests: PASS }).decision.kind).toBe('continue');
    expect(decide(policy, state, { step: 1, tests: { ...PASS, treeFingerprint: 'a' }, tree: 'b' }).decision.kind).toBe('continue');
    expect(decide(policy, state, { step: 1, tests: { ...PASS, treeFingerprint: 'a' }, tree: 'a' }).decision.kind).toBe('stop');
  });

  it('refuses an event whose usage takes a total past the largest number, leaving the state usable', () => {
    const policy = success({ limit: { of: 'cost', max: 1e308 } });
    const first = decide(policy, initialStopState(policy), { step: 1, usage: { cost: 1.5e308 } });
    expect(() => decide(policy, first.state, { step: 2, usage: { cost: 1.5e308 } })).toThrow(/event\.usage\.cost takes the run's total past the largest number/);
    expect(decide(policy, first.state, { step: 2, usage: { cost: 1 } }).decision.kind).toBe('stop');
  });
});

describe('the options of a step_history condition', () => {
  const mk = (options: unknown) => ({ version: 1, rules: [{ id: 'r', when: { stall: { detector: 'step_history', options } }, then: { kind: 'stop', exit: 'need_help', reason: 'x' } }] });

  it('refuses an unknown field inside a pattern or a tool identity, naming its path', () => {
    expect(() => parseStopPolicy(mk({ repeatedResult: { repaets: 2 } }))).toThrow('rules[0].when.stall.options.repeatedResult.repaets: unknown field; expected one of repeats');
    expect(() => parseStopPolicy(mk({ tools: { bash: { argumentz: ['a'] } } }))).toThrow('rules[0].when.stall.options.tools.bash.argumentz: unknown field');
  });

  it('keeps a copy: the caller object is not frozen', () => {
    const options = { repeatedResult: { repeats: 2 } };
    const policy = parseStopPolicy(mk(options));
    expect(Object.isFrozen(options)).toBe(false);
    expect(Object.isFrozen(options.repeatedResult)).toBe(false);
    options.repeatedResult.repeats = 9;
    expect(policy.rules[0]?.when).toEqual({ stall: { detector: 'step_history', options: { repeatedResult: { repeats: 2 } } } });
  });
});
