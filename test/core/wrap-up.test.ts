import { describe, expect, it } from 'vitest';
import { emptyUsage, type BudgetUsage } from '../../src/core/budget.js';
import { isWrapUpTurn } from '../../src/core/wrap-up.js';

const usage = (over: Partial<BudgetUsage>): BudgetUsage => ({ ...emptyUsage(), ...over });

describe('isWrapUpTurn', () => {
  it('flags exactly the last wrapUpSteps turns before maxSteps', () => {
    const flags = (wrapUpSteps: number) => [0, 1, 2, 3, 4].map((steps) => isWrapUpTurn({ maxSteps: 5 }, usage({ steps }), wrapUpSteps));
    expect(flags(1)).toEqual([false, false, false, false, true]);
    expect(flags(2)).toEqual([false, false, false, true, true]);
    expect(flags(0)).toEqual([false, false, false, false, false]);
  });

  it('projects the mean use per step for time, tokens and cost', () => {
    expect(isWrapUpTurn({ maxWallClockMs: 10_000 }, usage({ steps: 2, wallClockMs: 7_000 }), 1)).toBe(true);
    expect(isWrapUpTurn({ maxWallClockMs: 10_000 }, usage({ steps: 2, wallClockMs: 6_000 }), 1)).toBe(false);
    expect(isWrapUpTurn({ maxTotalTokens: 1_000 }, usage({ steps: 3, inputTokens: 600, outputTokens: 150 }), 1)).toBe(true);
    expect(isWrapUpTurn({ maxCost: 1 }, usage({ steps: 1, cost: 0.4 }), 1)).toBe(false);
    expect(isWrapUpTurn({ maxCost: 1 }, usage({ steps: 1, cost: 0.4 }), 2)).toBe(true);
  });

  it('cannot project before the first step or with nothing used', () => {
    expect(isWrapUpTurn({ maxCost: 0.01 }, usage({ steps: 0 }), 3)).toBe(false);
    expect(isWrapUpTurn({ maxCost: 1 }, usage({ steps: 4, cost: 0 }), 3)).toBe(false);
    expect(isWrapUpTurn({}, usage({ steps: 100 }), 3)).toBe(false);
  });
});
