import { budgetRules } from './policy/agent-loop-policy.js';
import { decideUnobserved, initialStopState } from './policy/decide.js';
import { parseStopPolicy } from './policy/parse-stop-policy.js';
import { STOP_POLICY_VERSION, type StopPolicyDocument } from './policy/stop-policy-document.js';
/** Hard limits of a run; each is optional, and a limit is reached when usage is at or above it. */
export interface BudgetLimits {
  readonly maxSteps?: number;
  readonly maxWallClockMs?: number;
  readonly maxInputTokens?: number;
  readonly maxOutputTokens?: number;
  readonly maxTotalTokens?: number;
  readonly maxCost?: number;
  readonly maxToolErrors?: number;
}

/** What a run has used so far. Plain data. */
export interface BudgetUsage {
  readonly steps: number;
  readonly wallClockMs: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cost: number;
  readonly toolErrors: number;
}

/** What one step used; every field defaults to 0. */
export interface StepUsage {
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly cost?: number;
  readonly toolErrors?: number;
  readonly wallClockMs?: number;
}

/** The kind of limit that was reached. */
export type BudgetLimitKind = 'steps' | 'wall_clock' | 'tokens' | 'cost' | 'tool_errors';

/** The result of {@link checkBudget}: `key` names the limit field that was reached. */
export type BudgetCheck =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly limit: BudgetLimitKind;
      readonly key: keyof BudgetLimits;
      readonly used: number;
      readonly max: number;
    };

/** What is left of each limit that is set (never below 0). */
export type BudgetRemaining = { readonly [K in keyof BudgetLimits]?: number };

/** The limits in the order they are checked, with the kind each reports. */
const LIMIT_ORDER: readonly (readonly [keyof BudgetLimits, BudgetLimitKind])[] = [
  ['maxSteps', 'steps'],
  ['maxWallClockMs', 'wall_clock'],
  ['maxInputTokens', 'tokens'],
  ['maxOutputTokens', 'tokens'],
  ['maxTotalTokens', 'tokens'],
  ['maxCost', 'cost'],
  ['maxToolErrors', 'tool_errors'],
];

/** The usage counters each limit reads; a limit compares their sum. */
export const COUNTERS_READ: CountersRead = {
  maxSteps: ['steps'],
  maxWallClockMs: ['wallClockMs'],
  maxInputTokens: ['inputTokens'],
  maxOutputTokens: ['outputTokens'],
  maxTotalTokens: ['inputTokens', 'outputTokens'],
  maxCost: ['cost'],
  maxToolErrors: ['toolErrors'],
};

/** What a limit compares: the sum of the counters it reads. */
function usedBy(key: keyof BudgetLimits, usage: BudgetUsage): number {
  let used = 0;
  for (const counter of COUNTERS_READ[key]) used += usage[counter];
  return used;
}

/** Usage before the first step: every counter at 0. */
export function emptyUsage(): BudgetUsage {
  return { steps: 0, wallClockMs: 0, inputTokens: 0, outputTokens: 0, cost: 0, toolErrors: 0 };
}

/**
 * Checks usage against the limits, in the order steps, wall clock, tokens
 * (input, output, total), cost, tool errors; the first limit reached is
 * returned. A counter that no set limit reads may be absent; one that a set
 * limit reads must be there, so a missing counter never switches a limit
 * off. Throws a `TypeError` naming the field for a limit that is not a
 * non-negative number, a counter a set limit reads that is absent, or any
 * counter that is present but not a non-negative finite number.
 *
 * @example
 * checkBudget({ maxSteps: 10, maxCost: 2 }, { steps: 4, cost: 2.1 });
 * // { ok: false, limit: 'cost', key: 'maxCost', used: 2.1, max: 2 }
 */
export function checkBudget(limits: BudgetLimits, usage: Partial<BudgetUsage>): BudgetCheck {
  assertLimits(limits);
  const counted = assertUsageFor(limits, usage);
  const policy = budgetPolicy(limits);
  const event = {
    step: counted.steps,
    elapsedMs: counted.wallClockMs,
    usage: { inputTokens: counted.inputTokens, outputTokens: counted.outputTokens, cost: counted.cost, toolErrors: counted.toolErrors },
  };
  const { decision } = decideUnobserved(policy, initialStopState(policy), event);
  if (decision.kind !== 'stop') return { ok: true };
  const key = decision.rule as keyof BudgetLimits;
  const entry = LIMIT_ORDER.find(([name]) => name === key) as readonly [keyof BudgetLimits, BudgetLimitKind];
  return { ok: false, limit: entry[1], key, used: usedBy(key, counted), max: limits[key] as number };
}

const policies = new Map<string, StopPolicyDocument>();

/** The limits as a policy of their rules alone (`budgetRules`), made once per set of limits. */
function budgetPolicy(limits: BudgetLimits): StopPolicyDocument {
  const key = LIMIT_ORDER.map(([name]) => String(limits[name])).join('/');
  let policy = policies.get(key);
  if (policy === undefined) {
    const rules = budgetRules(limits);
    policy = parseStopPolicy({ version: STOP_POLICY_VERSION, name: 'budget', rules: rules.length > 0 ? rules : [{ id: 'within_budget', when: { always: true }, then: { kind: 'continue' } }] });
    if (policies.size >= 64) policies.clear();
    policies.set(key, policy);
  }
  return policy;
}

/** What is left of each limit that is set; `usage` is checked as {@link checkBudget} checks it. */
export function remainingBudget(limits: BudgetLimits, usage: Partial<BudgetUsage>): BudgetRemaining {
  assertLimits(limits);
  const counted = assertUsageFor(limits, usage);
  const remaining: { -readonly [K in keyof BudgetLimits]?: number } = {};
  for (const [key] of LIMIT_ORDER) {
    const max = limits[key];
    if (max !== undefined) remaining[key] = Math.max(0, max - usedBy(key, counted));
  }
  return remaining;
}

/**
 * A new total with one step added: `steps` plus one and each counter of
 * `step` added. Throws a `TypeError` for a negative or non-finite amount.
 */
export function addUsage(total: BudgetUsage, step: StepUsage = {}): BudgetUsage {
  assertUsage(total);
  return {
    steps: total.steps + 1,
    wallClockMs: total.wallClockMs + amount('wallClockMs', step.wallClockMs),
    inputTokens: total.inputTokens + amount('inputTokens', step.inputTokens),
    outputTokens: total.outputTokens + amount('outputTokens', step.outputTokens),
    cost: total.cost + amount('cost', step.cost),
    toolErrors: total.toolErrors + amount('toolErrors', step.toolErrors),
  };
}

function amount(field: string, value: number | undefined): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new TypeError(`step usage ${field} must be a non-negative finite number, got ${String(value)}`);
  }
  return value;
}

/** Throws a `TypeError` naming the field for a limit that is not a non-negative number. */
export function assertLimits(limits: BudgetLimits): void {
  if (typeof limits !== 'object' || limits === null) throw new TypeError('limits must be an object');
  for (const [key] of LIMIT_ORDER) {
    const value = limits[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
      throw new TypeError(`limits.${key} must be a non-negative number, got ${String(value)}`);
    }
  }
}

const USAGE_FIELDS: readonly (keyof BudgetUsage)[] = ['steps', 'wallClockMs', 'inputTokens', 'outputTokens', 'cost', 'toolErrors'];

/** Throws a `TypeError` naming the field when a usage counter is missing, negative or not a finite number. */
export function assertUsage(usage: BudgetUsage): void {
  assertUsageFor(undefined, usage);
}

/** Which usage counters each limit reads. */
export type CountersRead = { readonly [K in keyof BudgetLimits]-?: readonly (keyof BudgetUsage)[] };

/**
 * Checks the usage that `limits` read: a counter that a set limit reads (or,
 * with no limits given, every counter) must be present, and every counter
 * that is present must be a non-negative finite number. Returns the usage
 * with the absent counters at 0, which no set limit reads.
 */
export function assertUsageFor(limits: BudgetLimits | undefined, usage: Partial<BudgetUsage>, read: CountersRead = COUNTERS_READ): BudgetUsage {
  if (typeof usage !== 'object' || usage === null) throw new TypeError('usage must be an object');
  let complete = true;
  for (const field of USAGE_FIELDS) {
    const value: unknown = usage[field];
    if (value === undefined && limits !== undefined && readersOf(limits, field, read).length === 0) {
      complete = false;
      continue;
    }
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      const readers = limits === undefined ? [] : readersOf(limits, field, read);
      const reader = readers.length === 0 ? '' : ` (${readers.join(' and ')} reads it)`;
      throw new TypeError(`usage.${field} must be a non-negative finite number${reader}, got ${String(value)}`);
    }
  }
  if (complete) return usage as BudgetUsage;
  const counted = emptyUsage() as { -readonly [K in keyof BudgetUsage]: number };
  for (const field of USAGE_FIELDS) counted[field] = usage[field] ?? 0;
  return counted;
}

function readersOf(limits: BudgetLimits, field: keyof BudgetUsage, read: CountersRead): string[] {
  const readers: string[] = [];
  for (const [key] of LIMIT_ORDER) if (limits[key] !== undefined && read[key].includes(field)) readers.push(`limits.${key}`);
  return readers;
}
