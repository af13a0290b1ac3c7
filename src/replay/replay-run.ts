import { lowestCriterion } from '../core/criterion-probabilities.js';
import { decide, initialStopState } from '../core/policy/decide.js';
import type { StopDecision } from '../core/policy/stop-decision.js';
import type { StopPolicyDocument } from '../core/policy/stop-policy-document.js';
import { SEED_STOP_POLICY } from '../core/policy/seed-stop-policy.js';
import type { TestEvidence } from '../core/test-evidence.js';
import type { RunTrace } from './run-trace.js';

/** One replayed step under a policy document: the evidence the policy saw and its decision. */
export interface ReplayedStep {
  readonly step: number;
  readonly tests: Pick<TestEvidence, 'passed' | 'failed' | 'ran'>;
  readonly lowestProbability: number;
  readonly lowestCriterion?: string;
  readonly decision: StopDecision;
}

/**
 * A recorded run walked through a policy document with `decide`: `endedBy`
 * is `decision` when the policy stopped the run and `end_of_recording` when
 * the recording ran out while it still said `retry` or `continue`.
 */
export interface ReplayResult {
  readonly source: string;
  readonly task?: string;
  readonly taskType?: string;
  readonly steps: readonly ReplayedStep[];
  readonly final: StopDecision;
  readonly endedBy: 'decision' | 'end_of_recording';
  readonly stepsRecorded: number;
}

/**
 * Walks a recorded run step by step through `decide` with `policy` (the seed
 * preset by default): each
 * recorded step is one event (`step`, `tests`, `probabilities`, `output`,
 * and the header's `taskType`), and the replay stops where the policy stops.
 */
export function replayRun(trace: RunTrace, policy: StopPolicyDocument = SEED_STOP_POLICY): ReplayResult {
  const steps: ReplayedStep[] = [];
  let state = initialStopState(policy);
  const taskType = trace.header.taskType;
  for (const recorded of trace.steps) {
    const result = decide(policy, state, {
      step: recorded.step,
      tests: recorded.tests,
      probabilities: recorded.probabilities,
      output: recorded.output,
      ...(taskType === undefined ? {} : { taskType }),
    });
    state = result.state;
    const lowest = lowestCriterion(recorded.probabilities);
    steps.push({
      step: recorded.step,
      tests: { passed: recorded.tests.passed, failed: recorded.tests.failed, ran: recorded.tests.ran },
      lowestProbability: lowest.probability,
      ...(lowest.criterion === undefined ? {} : { lowestCriterion: lowest.criterion }),
      decision: result.decision,
    });
    if (result.decision.kind === 'stop') break;
  }
  const last = steps[steps.length - 1];
  if (last === undefined) throw new TypeError(`${trace.source}: a recorded run needs at least one step`);
  return {
    source: trace.source,
    ...(trace.header.task === undefined ? {} : { task: trace.header.task }),
    ...(taskType === undefined ? {} : { taskType }),
    steps,
    final: last.decision,
    endedBy: last.decision.kind === 'stop' ? 'decision' : 'end_of_recording',
    stepsRecorded: trace.steps.length,
  };
}

/** How replayed runs ended under a policy document: per outcome (`stop success`, `retry`, ...) and reason. */
export interface ReplaySummary {
  readonly runs: number;
  readonly byOutcome: readonly { readonly outcome: string; readonly reason: string; readonly count: number }[];
  /** Runs whose recording ended before the policy stopped them. */
  readonly unfinished: number;
}

/** The outcome of a decision as one word or two: `stop success`, `stop need_help`, `retry`, `continue`. */
export function outcomeOf(decision: StopDecision): string {
  return decision.kind === 'stop' ? `stop ${decision.exit}` : decision.kind;
}

/** Counts how the replayed runs ended, per outcome and reason. */
export function summarizeReplays(results: readonly ReplayResult[]): ReplaySummary {
  const counts = new Map<string, { outcome: string; reason: string; count: number }>();
  let unfinished = 0;
  for (const result of results) {
    if (result.endedBy === 'end_of_recording') unfinished += 1;
    const outcome = outcomeOf(result.final);
    const key = `${outcome}/${result.final.reason}`;
    const entry = counts.get(key) ?? { outcome, reason: result.final.reason, count: 0 };
    entry.count += 1;
    counts.set(key, entry);
  }
  return {
    runs: results.length,
    byOutcome: [...counts.values()].sort((a, b) => a.outcome.localeCompare(b.outcome) || a.reason.localeCompare(b.reason)),
    unfinished,
  };
}
