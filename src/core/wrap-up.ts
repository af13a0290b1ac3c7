import { assertLimits, assertUsageFor, type BudgetLimits, type BudgetUsage, type CountersRead } from './budget.js';

const PROJECTED: readonly (readonly [keyof BudgetLimits, (usage: BudgetUsage) => number])[] = [
  ['maxWallClockMs', (u) => u.wallClockMs],
  ['maxInputTokens', (u) => u.inputTokens],
  ['maxOutputTokens', (u) => u.outputTokens],
  ['maxTotalTokens', (u) => u.inputTokens + u.outputTokens],
  ['maxCost', (u) => u.cost],
];

const COUNTERS_PROJECTED: CountersRead = {
  maxSteps: ['steps'],
  maxWallClockMs: ['steps', 'wallClockMs'],
  maxInputTokens: ['steps', 'inputTokens'],
  maxOutputTokens: ['steps', 'outputTokens'],
  maxTotalTokens: ['steps', 'inputTokens', 'outputTokens'],
  maxCost: ['steps', 'cost'],
  maxToolErrors: [],
};

/**
 * True when the next turn is one of the last `wrapUpSteps` before a limit:
 * exactly for `maxSteps`, and for time, tokens and cost by projecting the
 * mean use per step so far (so never before the first step has been counted).
 * `usage` needs `steps` and the counters of the limits that are set; a
 * missing or invalid one throws a `TypeError`, as in `checkBudget`.
 *
 * @example
 * isWrapUpTurn({ maxSteps: 10 }, { ...emptyUsage(), steps: 9 }, 1); // true: the tenth turn is the last
 */
export function isWrapUpTurn(limits: BudgetLimits, usage: Partial<BudgetUsage>, wrapUpSteps: number): boolean {
  assertLimits(limits);
  const counted = assertUsageFor(limits, usage, COUNTERS_PROJECTED);
  if (wrapUpSteps <= 0) return false;
  if (limits.maxSteps !== undefined && limits.maxSteps - counted.steps <= wrapUpSteps) return true;
  if (counted.steps === 0) return false;
  for (const [key, read] of PROJECTED) {
    const max = limits[key];
    if (max === undefined) continue;
    const used = read(counted);
    const perStep = used / counted.steps;
    if (perStep > 0 && max - used <= perStep * wrapUpSteps) return true;
  }
  return false;
}
