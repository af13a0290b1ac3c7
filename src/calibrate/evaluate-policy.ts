import type { StopPolicyDocument } from '../core/policy/stop-policy-document.js';
import type { ScoredCase } from './labelled-case.js';
import { caseDecisions, type LabelCounts } from './policy-thresholds.js';

export type { LabelCounts } from './policy-thresholds.js';

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
  /** How many cases each reason of the policy's decisions covers. */
  readonly byReason: Readonly<Record<string, number>>;
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
 * Decides every case with `policy` (`decide`, one event a case; cases alike
 * in all the policy reads share one decision) and counts
 * what happens per label: stopped as done (a stop with exit `success`),
 * handed to a person (any other stop), or sent back (`retry` and `continue`).
 * Under a policy whose success rules read the tests, a case whose tests failed
 * or did not run is never stopped as done, so it is never a false done.
 *
 * @example
 * const report = evaluatePolicy(cases, seedStopPolicy(createStopPolicy({ doneThreshold: 0.85 })));
 * report.falseDoneRate; // share of all cases stopped as done while labelled not done
 */
export function evaluatePolicy(cases: readonly ScoredCase[], policy: StopPolicyDocument): PolicyEvaluation {
  const stopDone = { done: 0, notDone: 0 };
  const retry = { done: 0, notDone: 0 };
  const handoffHuman = { done: 0, notDone: 0 };
  const byReason: Record<string, number> = {};
  cases.forEach((labelled, index) => {
    if (labelled.probabilities === undefined) {
      throw new TypeError(`case ${index}${labelled.id === undefined ? '' : ` (${labelled.id})`} has no probabilities`);
    }
  });
  caseDecisions(policy, cases).forEach((decision, index) => {
    const bucket = decision.verdict === 'done' ? stopDone : decision.verdict === 'handoff' ? handoffHuman : retry;
    if ((cases[index] as ScoredCase).label === 'done') bucket.done++;
    else bucket.notDone++;
    byReason[decision.reason] = (byReason[decision.reason] ?? 0) + 1;
  });
  return summarizeCounts(cases.length, stopDone, retry, handoffHuman, byReason);
}

/** Builds a {@link PolicyEvaluation} from counts per action and label. */
export function summarizeCounts(
  total: number,
  stopDone: LabelCounts,
  retry: LabelCounts,
  handoffHuman: LabelCounts,
  byReason: Readonly<Record<string, number>> = {},
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
