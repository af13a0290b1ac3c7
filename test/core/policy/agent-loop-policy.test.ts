import { describe, expect, it } from 'vitest';
import { agentLoopPolicy, BUDGET_LIMITS, budgetRules, policyBudgetLimits } from '../../../src/core/policy/agent-loop-policy.js';
import { decide, initialStopState } from '../../../src/core/policy/decide.js';
import { SEED_STOP_POLICY } from '../../../src/core/policy/seed-stop-policy.js';

describe('agentLoopPolicy', () => {
  it('puts the provider first, then the exits of a signal, then one rule per limit in checkBudget order, then the rejected done', () => {
    const policy = agentLoopPolicy({ maxCost: 2, maxSteps: 10, maxToolErrors: 3, maxWallClockMs: Infinity });
    expect(policy.name).toBe('agent-loop');
    expect(policy.rules.map((rule) => rule.id)).toEqual(['provider_failed', 'provider_limit', 'verified', 'gave_up', 'need_help', 'maxSteps', 'maxCost', 'maxToolErrors', 'not_verified']);
    expect(policy.rules[5]).toEqual({ id: 'maxSteps', when: { limit: { of: 'steps', max: 10 } }, then: { kind: 'stop', exit: 'limit', reason: 'maxSteps' } });
  });

  it('ends on what the provider said before anything else: a defect as failed, its own limit as limit', () => {
    const policy = agentLoopPolicy({ maxSteps: 1 });
    const at = (event: Parameters<typeof decide>[2]) => decide(policy, initialStopState(policy), event).decision;
    const done = { kind: 'done' as const, note: '' };
    expect(at({ step: 1, provider: 'failed', signal: done, verification: { ok: true } })).toMatchObject({ kind: 'stop', exit: 'failed', rule: 'provider_failed' });
    expect(at({ step: 1, provider: 'token_limit' })).toMatchObject({ kind: 'stop', exit: 'limit', rule: 'provider_limit', values: { provider: 'token_limit' } });
    expect(at({ step: 1, provider: 'step_limit' })).toMatchObject({ kind: 'stop', exit: 'limit', rule: 'provider_limit', values: { provider: 'step_limit' } });
    expect(at({ step: 1, signal: done, verification: { ok: true } })).toMatchObject({ kind: 'stop', exit: 'success', rule: 'verified' });
    expect(at({ step: 1, signal: done, verification: { ok: false, unmet: ['docs'] } })).toMatchObject({ kind: 'stop', exit: 'limit', rule: 'maxSteps' });
    expect(at({ step: 0, signal: done, verification: { ok: false, unmet: ['docs'] } })).toMatchObject({ kind: 'retry', rule: 'not_verified' });
  });

  it('holds a fractional step cap as the step it is reached on, and a cap of 0 as reached before the first step', () => {
    expect(agentLoopPolicy({ maxSteps: 2.5 }).rules.find((rule) => rule.id === 'maxSteps')?.when).toEqual({ limit: { of: 'steps', max: 3 } });
    const none = agentLoopPolicy({ maxSteps: 0 });
    expect(none.rules.find((rule) => rule.id === 'maxSteps')?.when).toEqual({ limit: { of: 'steps', max: 0 } });
    expect(decide(none, initialStopState(none), { step: 0, elapsedMs: 0 }).decision).toMatchObject({ kind: 'stop', exit: 'limit', rule: 'maxSteps' });
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

describe('budgetRules', () => {
  it('makes one stop rule per finite limit, in the order of BUDGET_LIMITS, each named by its key', () => {
    expect(BUDGET_LIMITS.map(([key]) => key)).toEqual(['maxSteps', 'maxWallClockMs', 'maxInputTokens', 'maxOutputTokens', 'maxTotalTokens', 'maxCost', 'maxToolErrors']);
    expect(budgetRules({ maxToolErrors: 2, maxWallClockMs: 1000, maxInputTokens: Infinity })).toEqual([
      { id: 'maxWallClockMs', when: { limit: { of: 'wallClockMs', max: 1000 } }, then: { kind: 'stop', exit: 'limit', reason: 'maxWallClockMs' } },
      { id: 'maxToolErrors', when: { limit: { of: 'toolErrors', max: 2 } }, then: { kind: 'stop', exit: 'limit', reason: 'maxToolErrors' } },
    ]);
    expect(budgetRules({})).toEqual([]);
    expect(() => budgetRules({ maxSteps: Number.NaN })).toThrow(/limits.maxSteps/);
  });
});

describe('policyBudgetLimits', () => {
  it('reads the limits a rule stops on by itself, the smallest of each, and leaves combined limits out', () => {
    expect(policyBudgetLimits(SEED_STOP_POLICY)).toEqual({ maxSteps: 20 });
    expect(
      policyBudgetLimits({
        version: 2,
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
