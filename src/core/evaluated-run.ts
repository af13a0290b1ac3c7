import type { BudgetUsage } from './budget.js';
import { STOP_EXITS, type StopExit } from './policy/stop-decision.js';

/** The task type under which runs without one are counted. */
export const DEFAULT_TASK_TYPE = 'default';

/** The part of a run's outcome that evaluation reads; every `StopOutcome` fits. */
export interface EvaluatedOutcome {
  readonly exit: StopExit;
  readonly steps: number;
  readonly usage: Pick<BudgetUsage, 'wallClockMs' | 'cost'>;
}

/**
 * One finished run for evaluation: its outcome, its task type, whether an
 * independent check confirmed the result, and whether the task was impossible
 * on purpose.
 */
export interface EvaluatedRun {
  readonly outcome: EvaluatedOutcome;
  readonly taskType?: string;
  readonly independentCheck?: boolean;
  readonly impossible?: boolean;
}

/** Groups runs by task type, in first-seen order; throws a `TypeError` naming the index of a malformed run. */
export function groupRunsByTaskType(runs: readonly EvaluatedRun[]): Map<string, EvaluatedRun[]> {
  if (!Array.isArray(runs)) throw new TypeError('runs must be an array');
  const groups = new Map<string, EvaluatedRun[]>();
  runs.forEach((run, index) => {
    assertEvaluatedRun(run, index);
    const taskType = run.taskType ?? DEFAULT_TASK_TYPE;
    const group = groups.get(taskType);
    if (group === undefined) groups.set(taskType, [run]);
    else group.push(run);
  });
  return groups;
}

function assertEvaluatedRun(run: EvaluatedRun, index: number): void {
  const at = `runs[${index}]`;
  if (typeof run !== 'object' || run === null) throw new TypeError(`${at} must be an object { outcome, taskType? }`);
  const outcome = run.outcome as Partial<EvaluatedOutcome> | null | undefined;
  if (typeof outcome !== 'object' || outcome === null) throw new TypeError(`${at}.outcome must be an object`);
  if (!(STOP_EXITS as readonly unknown[]).includes(outcome.exit)) {
    throw new TypeError(`${at}.outcome.exit must be one of ${STOP_EXITS.join(', ')}, got ${String(outcome.exit)}`);
  }
  if (!isCount(outcome.steps)) throw new TypeError(`${at}.outcome.steps must be a non-negative integer, got ${String(outcome.steps)}`);
  const usage = outcome.usage as Partial<EvaluatedOutcome['usage']> | null | undefined;
  if (typeof usage !== 'object' || usage === null) throw new TypeError(`${at}.outcome.usage must be an object { wallClockMs, cost }`);
  for (const field of ['wallClockMs', 'cost'] as const) {
    const value = usage[field];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new TypeError(`${at}.outcome.usage.${field} must be a non-negative finite number, got ${String(value)}`);
    }
  }
  if (run.taskType !== undefined && typeof run.taskType !== 'string') throw new TypeError(`${at}.taskType must be a string`);
  for (const flag of ['independentCheck', 'impossible'] as const) {
    if (run[flag] !== undefined && typeof run[flag] !== 'boolean') throw new TypeError(`${at}.${flag} must be a boolean`);
  }
}

function isCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
