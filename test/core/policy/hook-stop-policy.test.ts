import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { decide, initialStopState, needsJudgement } from '../../../src/core/policy/decide.js';
import { HOOK_RULE_IDS, HOOK_STOP_POLICY, hookStopPolicy } from '../../../src/core/policy/hook-stop-policy.js';
import { parseStopPolicy } from '../../../src/core/policy/parse-stop-policy.js';
import type { StopEvent } from '../../../src/core/policy/stop-event.js';
import { createStopPolicy } from '../../../src/core/stop-policy.js';

const schema = JSON.parse(readFileSync(join(import.meta.dirname, '../../../schemas/stop-policy.schema.json'), 'utf8')) as object;
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);
const red = { passed: false, failed: ['a > b'], ran: 2 };
const green = { passed: true, failed: [], ran: 2 };
const none = { passed: false, failed: [], ran: 0 };

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
    expect(at({ tests: green, decisionModel: 'none' })).toBe(false);
    expect(at({ tests: red, decisionModel: 'unavailable' })).toBe(false);
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
    expect(decided({ tests: green, decisionModel: 'unavailable' })).toMatchObject({ kind: 'stop', exit: 'need_help', rule: 'decision_model_unavailable' });
    expect(decided({ tests: green, decisionModel: 'none' })).toMatchObject({ kind: 'stop', exit: 'success', rule: 'tests_passed_unjudged', reason: 'tests_passed' });
    expect(decided({ tests: red, decisionModel: 'unavailable' })).toMatchObject({ kind: 'retry', rule: 'tests_failed', values: { decisionModel: 'unavailable' } });
    expect(decided({ tests: red, decisionModel: 'none' })).toMatchObject({ kind: 'retry', rule: 'tests_failed', values: { decisionModel: 'none' } });
    expect(decided({ tests: red, probabilities: { a: 0.9 } })).toMatchObject({ kind: 'stop', rule: 'evidence_contradicts_model' });
    expect(decided({ tests: green, probabilities: { a: 0.5 } })).toMatchObject({ kind: 'retry', rule: 'criteria_below_threshold', values: { belowProbability: 0.7 } });
  });
});

describe('hookStopPolicy', () => {
  it('with one block allowed, counts the host re-entry flag as a block', () => {
    const decided = (event: Omit<StopEvent, 'step'>) => decide(HOOK_STOP_POLICY, initialStopState(HOOK_STOP_POLICY), { step: 1, ...event }).decision;
    expect(decided({ tests: red, reentered: true })).toMatchObject({ kind: 'stop', exit: 'need_help', rule: 'tests_failed_after_block' });
    expect(decided({ tests: none, reentered: true })).toMatchObject({ kind: 'stop', exit: 'need_help', rule: 'no_tests_after_block' });
    expect(decided({ tests: green, reentered: true })).toMatchObject({ kind: 'stop', exit: 'success', rule: 'passed_after_block' });
  });

  it('hands off at the step cap and on a stall first, with the numbers it is given', () => {
    const policy = hookStopPolicy(createStopPolicy({ maxSteps: 3, stallRounds: 2 }));
    let state = initialStopState(policy);
    const rules = [1, 2].map((step) => {
      const result = decide(policy, state, { step, tests: red, output: 'same', probabilities: { a: 0.2 } });
      state = result.state;
      return result.decision.rule;
    });
    expect(rules).toEqual(['tests_failed', 'stalled']);
    expect(decide(policy, initialStopState(policy), { step: 3, tests: green, probabilities: { a: 1 } }).decision).toMatchObject({ kind: 'stop', exit: 'limit', rule: 'hard_cap' });
    expect(() => hookStopPolicy(undefined, { maxConsecutiveBlocks: 1.5 })).toThrow('maxConsecutiveBlocks must be a positive integer, got 1.5');
  });
});
