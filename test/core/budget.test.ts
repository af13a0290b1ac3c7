import { describe, expect, it } from 'vitest';
import { addUsage, checkBudget, emptyUsage, remainingBudget, type BudgetUsage } from '../../src/core/budget.js';

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
    [{ inputTokens: undefined as unknown as number }, /usage\.inputTokens/],
  ])('refuses usage %j instead of switching the limit off', (over, message) => {
    expect(() => checkBudget({ maxCost: 1, maxSteps: 3 }, usage(over))).toThrow(message);
    expect(() => remainingBudget({ maxCost: 1 }, usage(over))).toThrow(TypeError);
    expect(() => addUsage(usage(over))).toThrow(TypeError);
  });

  it('refuses a partial usage object', () => {
    expect(() => checkBudget({ maxCost: 1 }, { steps: 1 } as BudgetUsage)).toThrow(/usage\.wallClockMs/);
  });
});
