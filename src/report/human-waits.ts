import { DEFAULT_TASK_TYPE } from '../core/evaluated-run.js';
import type { ReportedRun } from './reported-run.js';

/** How long people took to answer the runs of one task type, and how often nobody did. */
export interface HumanWaitSummary {
  /** Questions put to a person (every `human` exchange of the traces). */
  readonly questions: number;
  readonly answered: number;
  /** Questions nobody answered before the deadline. */
  readonly timedOut: number;
  /** Questions with nobody to ask (no `askHuman`): the run ended at once. */
  readonly nobodyAsked: number;
  /** Of the answered questions: the median, the 90th percentile (nearest rank) and the longest wait, in ms. */
  readonly answerMs: { readonly median: number; readonly p90: number; readonly max: number } | null;
  /** All time spent waiting for people, answered or not, in ms. */
  readonly totalWaitMs: number;
}

/**
 * Per task type, the questions the runs put to people, how many were
 * answered, timed out or had nobody to ask, and how long the answers took.
 * Task types whose runs asked nothing are left out.
 *
 * @example
 * summarizeHumanWaits(runs).billing?.answerMs?.median; // 95000
 */
export function summarizeHumanWaits(runs: readonly Pick<ReportedRun, 'taskType' | 'humanWaits'>[]): Readonly<Record<string, HumanWaitSummary>> {
  const groups = new Map<string, { answeredMs: number[]; questions: number; timedOut: number; nobodyAsked: number; totalWaitMs: number }>();
  for (const run of runs) {
    if (run.humanWaits.length === 0) continue;
    const taskType = run.taskType ?? DEFAULT_TASK_TYPE;
    let group = groups.get(taskType);
    if (group === undefined) {
      group = { answeredMs: [], questions: 0, timedOut: 0, nobodyAsked: 0, totalWaitMs: 0 };
      groups.set(taskType, group);
    }
    for (const wait of run.humanWaits) {
      group.questions += 1;
      group.totalWaitMs += wait.waitedMs;
      if (wait.answered) group.answeredMs.push(wait.waitedMs);
      else if (wait.timedOut) group.timedOut += 1;
      else group.nobodyAsked += 1;
    }
  }
  const out: Record<string, HumanWaitSummary> = {};
  for (const [taskType, group] of groups) {
    const sorted = group.answeredMs.sort((a, b) => a - b);
    out[taskType] = {
      questions: group.questions,
      answered: sorted.length,
      timedOut: group.timedOut,
      nobodyAsked: group.nobodyAsked,
      answerMs: sorted.length === 0 ? null : { median: nearestRank(sorted, 0.5), p90: nearestRank(sorted, 0.9), max: sorted.at(-1) as number },
      totalWaitMs: group.totalWaitMs,
    };
  }
  return out;
}

function nearestRank(sorted: readonly number[], quantile: number): number {
  return sorted[Math.max(1, Math.ceil(quantile * sorted.length)) - 1] as number;
}
