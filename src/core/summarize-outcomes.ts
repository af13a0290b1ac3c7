import { groupRunsByTaskType, type EvaluatedRun } from './evaluated-run.js';
import { STOP_EXITS, type StopExit } from './policy/stop-decision.js';

/** How the runs of one task type ended. Rates are shares from 0 to 1, `null` when nothing to base them on. */
export interface OutcomeSummary {
  readonly runs: number;
  readonly counts: Readonly<Record<StopExit, number>>;
  readonly shares: Readonly<Record<StopExit, number>>;
  /** Successes that carry an independent check result. */
  readonly checkedSuccesses: number;
  /** Of the checked successes, the share that passed the check. */
  readonly trueSuccessRate: number | null;
  /** Runs marked impossible on purpose. */
  readonly impossibleRuns: number;
  /** Of the impossible runs, the share that ended in `gave_up`. */
  readonly correctGiveUpRate: number | null;
}

/**
 * Per task type: the number of runs, the share of each exit, the true-success
 * rate and the correct-give-up rate. Runs without a task type count under
 * `'default'`.
 *
 * @example
 * summarizeOutcomes([{ outcome, taskType: 'research', independentCheck: true }]).research?.trueSuccessRate; // 1
 */
export function summarizeOutcomes(runs: readonly EvaluatedRun[]): Readonly<Record<string, OutcomeSummary>> {
  return Object.fromEntries([...groupRunsByTaskType(runs)].map(([taskType, group]) => [taskType, summarize(group)]));
}

function summarize(runs: readonly EvaluatedRun[]): OutcomeSummary {
  const counts = Object.fromEntries(STOP_EXITS.map((exit) => [exit, 0])) as Record<StopExit, number>;
  let checkedSuccesses = 0;
  let passedChecks = 0;
  let impossibleRuns = 0;
  let correctGiveUps = 0;
  for (const run of runs) {
    const exit = run.outcome.exit;
    counts[exit] += 1;
    if (exit === 'success' && run.independentCheck !== undefined) {
      checkedSuccesses += 1;
      if (run.independentCheck) passedChecks += 1;
    }
    if (run.impossible === true) {
      impossibleRuns += 1;
      if (exit === 'gave_up') correctGiveUps += 1;
    }
  }
  const shares = Object.fromEntries(STOP_EXITS.map((exit) => [exit, counts[exit] / runs.length])) as Record<StopExit, number>;
  return {
    runs: runs.length,
    counts,
    shares,
    checkedSuccesses,
    trueSuccessRate: checkedSuccesses === 0 ? null : passedChecks / checkedSuccesses,
    impossibleRuns,
    correctGiveUpRate: impossibleRuns === 0 ? null : correctGiveUps / impossibleRuns,
  };
}
