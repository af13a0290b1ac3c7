import fc from 'fast-check';
import type { BudgetLimits, BudgetUsage } from '../../src/core/budget.js';

/** Every usage counter, sorted. */
export const COUNTERS: readonly (keyof BudgetUsage)[] = ['cost', 'inputTokens', 'outputTokens', 'steps', 'toolErrors', 'wallClockMs'];

const READS: { readonly [K in keyof BudgetLimits]-?: readonly (keyof BudgetUsage)[] } = {
  maxSteps: ['steps'],
  maxWallClockMs: ['wallClockMs'],
  maxInputTokens: ['inputTokens'],
  maxOutputTokens: ['outputTokens'],
  maxTotalTokens: ['inputTokens', 'outputTokens'],
  maxCost: ['cost'],
  maxToolErrors: ['toolErrors'],
};

/** The counters the set limits read, written out from the documentation; projecting a limit per step also reads `steps`. */
export function countersReadBy(limits: BudgetLimits, projected: boolean): ReadonlySet<keyof BudgetUsage> {
  const reads = new Set<keyof BudgetUsage>();
  for (const [key, fields] of Object.entries(READS) as [keyof BudgetLimits, readonly (keyof BudgetUsage)[]][]) {
    if (limits[key] === undefined) continue;
    if (projected && key === 'maxToolErrors') continue;
    for (const field of fields) reads.add(field);
    if (projected) reads.add('steps');
  }
  return reads;
}

const amount = fc.oneof(fc.nat(50), fc.double({ min: 0, max: 50, noNaN: true }));

/** Any set of limits, each set or not. */
export const budgetLimits: fc.Arbitrary<BudgetLimits> = fc.record(
  { maxSteps: fc.nat(20), maxWallClockMs: amount, maxInputTokens: amount, maxOutputTokens: amount, maxTotalTokens: amount, maxCost: amount, maxToolErrors: fc.nat(5) },
  { requiredKeys: [] },
);

/** Valid usage, each counter present or not. */
export const partialUsage: fc.Arbitrary<Partial<BudgetUsage>> = fc.record(
  { steps: fc.nat(20), wallClockMs: amount, inputTokens: amount, outputTokens: amount, cost: amount, toolErrors: fc.nat(5) },
  { requiredKeys: [] },
);

/** `usage` with some of the counters that are not in `reads` left out. */
export function withoutUnread(usage: BudgetUsage, reads: ReadonlySet<keyof BudgetUsage>, drop: (field: keyof BudgetUsage) => boolean): Partial<BudgetUsage> {
  const kept: Partial<Record<keyof BudgetUsage, number>> = {};
  for (const field of COUNTERS) if (reads.has(field) || !drop(field)) kept[field] = usage[field];
  return kept;
}
