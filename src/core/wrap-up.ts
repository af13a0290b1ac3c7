import type { BudgetLimits, BudgetUsage } from './budget.js';

const PROJECTED: readonly (readonly [keyof BudgetLimits, (usage: BudgetUsage) => number])[] = [
  ['maxWallClockMs', (u) => u.wallClockMs],
  ['maxInputTokens', (u) => u.inputTokens],
  ['maxOutputTokens', (u) => u.outputTokens],
  ['maxTotalTokens', (u) => u.inputTokens + u.outputTokens],
  ['maxCost', (u) => u.cost],
];

/**
 * True when the next turn is one of the last `wrapUpSteps` before a limit:
 * exactly for `maxSteps`, and for time, tokens and cost by projecting the
 * mean use per step so far (so never before the first step has been counted).
 *
 * @example
 * isWrapUpTurn({ maxSteps: 10 }, { ...emptyUsage(), steps: 9 }, 1); // true: the tenth turn is the last
 */
export function isWrapUpTurn(limits: BudgetLimits, usage: BudgetUsage, wrapUpSteps: number): boolean {
  if (wrapUpSteps <= 0) return false;
  if (limits.maxSteps !== undefined && limits.maxSteps - usage.steps <= wrapUpSteps) return true;
  if (usage.steps === 0) return false;
  for (const [key, read] of PROJECTED) {
    const max = limits[key];
    if (max === undefined) continue;
    const used = read(usage);
    const perStep = used / usage.steps;
    if (perStep > 0 && max - used <= perStep * wrapUpSteps) return true;
  }
  return false;
}
