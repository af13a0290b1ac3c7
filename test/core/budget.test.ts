import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addUsage, checkBudget, emptyUsage, remainingBudget, type BudgetLimits, type BudgetUsage } from '../../src/core/budget.js';
import { isWrapUpTurn } from '../../src/core/wrap-up.js';
import { budgetLimits, COUNTERS, countersReadBy, partialUsage, withoutUnread } from './budget-arbitraries.js';

const usage = (over: Partial<BudgetUsage>): BudgetUsage => ({ ...emptyUsage(), ...over });

describe('checkBudget', () => {
  it('is ok with no limits or usage below every limit', () => {
    expect(checkBudget({}, usage({ steps: 1000 }))).toEqual({ ok: true });
    expect(checkBudget({ maxSteps: 5, maxCost: 1 }, usage({ steps: 4, cost: 0.99 }))).toEqual({ ok: true });
  });

  it.each([
    [{ maxSteps: 5 }, { steps: 5 }, 'steps', 'maxSteps', 5],
    [{ maxWallClockMs: 1000 }, { wallClockMs: 1500 }, 'wall_clock', 'maxWallClockMs', 1500],
    [{ maxInputTokens: 100 }, { inputTokens: 100 }, 'tokens', 'maxInputTokens', 100],
    [{ maxOutputTokens: 100 }, { outputTokens: 101 }, 'tokens', 'maxOutputTokens', 101],
    [{ maxTotalTokens: 100 }, { inputTokens: 60, outputTokens: 40 }, 'tokens', 'maxTotalTokens', 100],
    [{ maxCost: 2 }, { cost: 2.5 }, 'cost', 'maxCost', 2.5],
    [{ maxToolErrors: 3 }, { toolErrors: 3 }, 'tool_errors', 'maxToolErrors', 3],
  ] as const)('%j is reached at or above the limit', (limits, used, limit, key, value) => {
    expect(checkBudget(limits, usage(used))).toEqual({ ok: false, limit, key, used: value, max: Object.values(limits)[0] });
  });

  it('reports the first limit in the documented order', () => {
    expect(checkBudget({ maxSteps: 1, maxCost: 1 }, usage({ steps: 1, cost: 1 }))).toMatchObject({ limit: 'steps' });
    expect(checkBudget({ maxToolErrors: 1, maxWallClockMs: 10 }, usage({ wallClockMs: 10, toolErrors: 1 }))).toMatchObject({
      limit: 'wall_clock',
    });
  });

  it('rejects a limit that is not a non-negative number, naming it', () => {
    expect(() => checkBudget({ maxCost: -1 }, emptyUsage())).toThrow(/limits\.maxCost/);
    expect(() => checkBudget({ maxSteps: Number.NaN }, emptyUsage())).toThrow(TypeError);
  });
});

describe('addUsage and remainingBudget', () => {
  it('adds one step to a new total', () => {
    const start = emptyUsage();
    const next = addUsage(start, { inputTokens: 10, outputTokens: 5, cost: 0.01, toolErrors: 1, wallClockMs: 30 });
    expect(next).toEqual({ steps: 1, wallClockMs: 30, inputTokens: 10, outputTokens: 5, cost: 0.01, toolErrors: 1 });
    expect(start).toEqual(emptyUsage());
    expect(addUsage(next)).toMatchObject({ steps: 2, inputTokens: 10 });
  });

  it('rejects a negative or non-finite amount', () => {
    expect(() => addUsage(emptyUsage(), { cost: -1 })).toThrow(/cost/);
    expect(() => addUsage(emptyUsage(), { inputTokens: Number.NaN })).toThrow(TypeError);
  });

  it('says what is left of each limit that is set', () => {
    expect(remainingBudget({ maxSteps: 10, maxCost: 1 }, usage({ steps: 4, cost: 1.5 }))).toEqual({ maxSteps: 6, maxCost: 0 });
  });

  it('keeps usage as plain JSON data', () => {
    const total = addUsage(addUsage(emptyUsage(), { cost: 0.5 }), { inputTokens: 3 });
    expect(JSON.parse(JSON.stringify(total))).toEqual(total);
  });
});

describe('usage validation', () => {
  it.each([
    [{ cost: Number.NaN }, /usage\.cost/],
    [{ steps: -1 }, /usage\.steps/],
    [{ cost: undefined as unknown as number }, /usage\.cost/],
  ])('refuses usage %j instead of switching the limit off', (over, message) => {
    expect(() => checkBudget({ maxCost: 1, maxSteps: 3 }, usage(over))).toThrow(message);
    expect(() => remainingBudget({ maxCost: 1 }, usage(over))).toThrow(TypeError);
    expect(() => addUsage(usage(over))).toThrow(TypeError);
  });

  it('takes usage without the counters that no set limit reads', () => {
    expect(checkBudget({ maxSteps: 3 }, { steps: 3 })).toEqual({ ok: false, limit: 'steps', key: 'maxSteps', used: 3, max: 3 });
    expect(checkBudget({ maxSteps: 3 }, { steps: 2 })).toEqual({ ok: true });
    expect(remainingBudget({ maxSteps: 3, maxCost: 1 }, { steps: 1, cost: 0.25 })).toEqual({ maxSteps: 2, maxCost: 0.75 });
    expect(checkBudget({}, {})).toEqual({ ok: true });
  });

  it('refuses usage without a counter that a set limit reads, naming the counter and the limit', () => {
    expect(() => checkBudget({ maxCost: 1 }, { steps: 1 })).toThrow('usage.cost must be a non-negative finite number (limits.maxCost reads it), got undefined');
    expect(() => checkBudget({ maxTotalTokens: 10 }, { inputTokens: 4 })).toThrow(/usage\.outputTokens .*limits\.maxTotalTokens/);
    expect(() => remainingBudget({ maxWallClockMs: 10 }, { steps: 1 })).toThrow(/usage\.wallClockMs/);
  });

  it('refuses a counter that is present but not a non-negative finite number, read or not', () => {
    expect(() => checkBudget({ maxSteps: 3 }, { steps: 1, cost: Number.NaN })).toThrow(/usage\.cost/);
  });
});

const USAGE_CHECKS = {
  checkBudget: (limits: BudgetLimits, used: Partial<BudgetUsage>) => checkBudget(limits, used),
  remainingBudget: (limits: BudgetLimits, used: Partial<BudgetUsage>) => remainingBudget(limits, used),
  isWrapUpTurn: (limits: BudgetLimits, used: Partial<BudgetUsage>) => isWrapUpTurn(limits, used, 2),
} as const;

describe.each(Object.entries(USAGE_CHECKS))('%s on usage with counters left out', (name, check) => {
  it('gives the same answer with or without the counters that no set limit reads', () => {
    fc.assert(
      fc.property(budgetLimits, partialUsage, fc.func(fc.boolean()), (limits, used, keep) => {
        const reads = countersReadBy(limits, name === 'isWrapUpTurn');
        const full = { ...emptyUsage(), ...used };
        expect(check(limits, withoutUnread(full, reads, (field) => keep(field)))).toEqual(check(limits, full));
      }),
      { numRuns: 500 },
    );
  });

  it('throws a TypeError naming a counter that a set limit reads when it is absent or not a valid number', () => {
    const bad = fc.constantFrom<unknown>(undefined, Number.NaN, -1, Number.POSITIVE_INFINITY, '3', null);
    fc.assert(
      fc.property(budgetLimits, partialUsage, bad, fc.nat(), (limits, used, value, pick) => {
        const reads = [...countersReadBy(limits, name === 'isWrapUpTurn')];
        fc.pre(reads.length > 0);
        const field = reads[pick % reads.length] ?? 'steps';
        const broken = { ...emptyUsage(), ...used, [field]: value } as Partial<BudgetUsage>;
        if (value === undefined) delete (broken as Record<string, unknown>)[field];
        expect(() => check(limits, broken)).toThrow(TypeError);
        expect(() => check(limits, broken)).toThrow(`usage.${field} must be a non-negative finite number`);
      }),
      { numRuns: 500 },
    );
  });

  it('checks every counter the type names', () => {
    expect(COUNTERS).toEqual(Object.keys(emptyUsage()).sort());
  });
});
