import { describe, expect, it } from 'vitest';
import { agentLoopPolicy, decide, initialStopState, policyBudgetLimits, SEED_STOP_POLICY } from '../../../src/index.js';

describe('agentLoopPolicy', () => {
  it('puts the exits of a signal first, then one rule per limit in checkBudget order, then the rejected done', () => {
    const policy = agentLoopPolicy({ maxCost: 2, maxSteps: 10, maxToolErrors: 3, maxWallClockMs: Infinity });
    expect(policy.rules.map((rule) => rule.id)).toEqual(['verified', 'gave_up', 'need_help', 'maxSteps', 'maxCost', 'maxToolErrors', 'not_verified']);
    expect(policy.rules[3]).toEqual({ id: 'maxSteps', when: { limit: { of: 'steps', max: 10 } }, then: { kind: 'stop', exit: 'limit', reason: 'maxSteps' } });
  });

  it('holds a fractional step cap as the step it is reached on, and no rule for a cap of 0', () => {
    expect(agentLoopPolicy({ maxSteps: 2.5 }).rules.find((rule) => rule.id === 'maxSteps')?.when).toEqual({ limit: { of: 'steps', max: 3 } });
    expect(agentLoopPolicy({ maxSteps: 0 }).rules.some((rule) => rule.id === 'maxSteps')).toBe(false);
  });

  it("lets a person's silence end the run, or with 'continue' go on", () => {
    const event = { step: 1, signal: { kind: 'need_help' as const, note: 'which?' }, human: { timedOut: true } };
    const stop = agentLoopPolicy({}, 'stop');
    const goOn = agentLoopPolicy({}, 'continue');
    expect(decide(stop, initialStopState(stop), event).decision).toMatchObject({ kind: 'stop', exit: 'need_help', rule: 'need_help' });
    expect(decide(goOn, initialStopState(goOn), event).decision).toMatchObject({ kind: 'continue', rule: null });
  });

  it('refuses a malformed limit', () => {
    expect(() => agentLoopPolicy({ maxCost: -1 })).toThrow(/limits.maxCost/);
  });
});

describe('policyBudgetLimits', () => {
  it('reads the limits a rule stops on by itself, the smallest of each, and leaves combined limits out', () => {
    expect(policyBudgetLimits(SEED_STOP_POLICY)).toEqual({ maxSteps: 20 });
    expect(
      policyBudgetLimits({
        version: 1,
        rules: [
          { id: 'a', when: { limit: { of: 'cost', max: 2 } }, then: { kind: 'stop', exit: 'limit', reason: 'a' } },
          { id: 'b', when: { limit: { of: 'cost', max: 1.5 } }, then: { kind: 'stop', exit: 'limit', reason: 'b' } },
          { id: 'c', when: { all: [{ limit: { of: 'steps', max: 3 } }, { tests: 'failed' }] }, then: { kind: 'stop', exit: 'gave_up', reason: 'c' } },
          { id: 'd', when: { limit: { of: 'decisionModelCalls', max: 4 } }, then: { kind: 'stop', exit: 'limit', reason: 'd' } },
          { id: 'e', when: { limit: { of: 'totalTokens', max: 900 } }, then: { kind: 'retry', reason: 'e' } },
        ],
      }),
    ).toEqual({ maxCost: 1.5 });
  });
});
