import type { CompletionActionKind, CompletionReason } from '../core/completion-action.js';
import { assertStopPolicy, type StopPolicy } from '../core/stop-policy.js';
import { decideCaseAction } from './case-outcome.js';
import type { ScoredCase } from './labelled-case.js';

/** Cases per label for one action. */
export interface LabelCounts {
  readonly done: number;
  readonly notDone: number;
}

/**
 * How a policy fares on labelled cases: what it decides per label, and the
 * rates a team cares about. Rates over no cases are `null`.
 */
export interface PolicyEvaluation {
  readonly cases: number;
  readonly confusion: {
    readonly stopDone: LabelCounts;
    readonly retry: LabelCounts;
    readonly handoffHuman: LabelCounts;
  };
  /** How many cases each rule of the action table decided. */
  readonly byReason: Readonly<Partial<Record<CompletionReason, number>>>;
  /** Cases stopped as done that a person judged not done. */
  readonly falseDones: number;
  /** Really-done cases handed to a person. */
  readonly falseHandoffs: number;
  /** False dones over all cases (the joint false-done rate). */
  readonly falseDoneRate: number | null;
  /** Among the cases stopped as done, the share a person judged done. */
  readonly precision: number | null;
  /** False hand-offs over all cases. */
  readonly falseHandoffRate: number | null;
  /** Share of cases not handed to a person (stopped as done or retried). */
  readonly coverage: number | null;
  /** Share of cases stopped as done. */
  readonly doneShare: number | null;
  /** Share of cases sent back for another step. */
  readonly retryShare: number | null;
}

/**
 * Runs every case through the real action table with `policy` and counts
 * what happens. A case whose tests failed or did not run is never stopped as
 * done by the table, so it can never be a false done.
 *
 * @example
 * const report = evaluatePolicy(cases, createStopPolicy({ doneThreshold: 0.85 }));
 * report.falseDoneRate; // share of all cases stopped as done while labelled not done
 */
export function evaluatePolicy(cases: readonly ScoredCase[], policy: StopPolicy): PolicyEvaluation {
  assertStopPolicy(policy);
  const counts: Record<CompletionActionKind, { done: number; notDone: number }> = {
    stop_done: { done: 0, notDone: 0 },
    retry: { done: 0, notDone: 0 },
    handoff_human: { done: 0, notDone: 0 },
  };
  const byReason: Partial<Record<CompletionReason, number>> = {};
  cases.forEach((labelled, index) => {
    if (labelled.probabilities === undefined) {
      throw new TypeError(`case ${index}${labelled.id === undefined ? '' : ` (${labelled.id})`} has no probabilities`);
    }
    const action = decideCaseAction(labelled, policy);
    const bucket = counts[action.action];
    if (labelled.label === 'done') bucket.done++;
    else bucket.notDone++;
    byReason[action.reason] = (byReason[action.reason] ?? 0) + 1;
  });
  return summarizeCounts(cases.length, counts.stop_done, counts.retry, counts.handoff_human, byReason);
}

/** Builds a {@link PolicyEvaluation} from counts per action and label. */
export function summarizeCounts(
  total: number,
  stopDone: LabelCounts,
  retry: LabelCounts,
  handoffHuman: LabelCounts,
  byReason: Readonly<Partial<Record<CompletionReason, number>>> = {},
): PolicyEvaluation {
  const share = (count: number): number | null => (total === 0 ? null : count / total);
  const stopped = stopDone.done + stopDone.notDone;
  return {
    cases: total,
    confusion: { stopDone: { ...stopDone }, retry: { ...retry }, handoffHuman: { ...handoffHuman } },
    byReason,
    falseDones: stopDone.notDone,
    falseHandoffs: handoffHuman.done,
    falseDoneRate: share(stopDone.notDone),
    precision: stopped === 0 ? null : stopDone.done / stopped,
    falseHandoffRate: share(handoffHuman.done),
    coverage: share(total - handoffHuman.done - handoffHuman.notDone),
    doneShare: share(stopped),
    retryShare: share(retry.done + retry.notDone),
  };
}
