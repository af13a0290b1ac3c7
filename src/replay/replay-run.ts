import { advanceLoopState, initialLoopState } from '../core/agent-loop-state.js';
import type { CompletionAction, CompletionActionKind, CompletionReason } from '../core/completion-action.js';
import { lowestCriterion } from '../core/criterion-probabilities.js';
import { decideCompletionAction } from '../core/decide-completion-action.js';
import { DEFAULT_POLICY, type StopPolicy } from '../core/stop-policy.js';
import type { TestEvidence } from '../core/test-evidence.js';
import type { RunTrace } from './run-trace.js';

/** One replayed step: the evidence the policy saw and what it decided. */
export interface ReplayedStep {
  readonly step: number;
  readonly tests: Pick<TestEvidence, 'passed' | 'failed' | 'ran'>;
  readonly lowestProbability: number;
  readonly lowestCriterion?: string;
  readonly action: CompletionAction;
}

/**
 * A recorded run walked through a policy. `endedBy` is `decision` when the
 * policy stopped the run (`stop_done` or `handoff_human`) and `end_of_recording`
 * when the recording ran out while the policy still said `retry`.
 */
export interface ReplayResult {
  readonly source: string;
  readonly task?: string;
  readonly taskType?: string;
  readonly steps: readonly ReplayedStep[];
  readonly final: CompletionAction;
  readonly endedBy: 'decision' | 'end_of_recording';
  readonly stepsRecorded: number;
}

/**
 * Walks a recorded run step by step through `decideCompletionAction`, with the
 * loop state (step and fingerprint window) rebuilt as a live loop would hold
 * it, and stops where the policy stops.
 */
export function replayRun(trace: RunTrace, policy: StopPolicy = DEFAULT_POLICY): ReplayResult {
  const steps: ReplayedStep[] = [];
  let loop = initialLoopState();
  for (const recorded of trace.steps) {
    loop = advanceLoopState(loop, recorded.tests, recorded.output, policy.stallRounds);
    loop = { ...loop, step: recorded.step };
    const action = decideCompletionAction(recorded.probabilities, recorded.tests, loop, policy);
    const lowest = lowestCriterion(recorded.probabilities);
    steps.push({
      step: recorded.step,
      tests: { passed: recorded.tests.passed, failed: recorded.tests.failed, ran: recorded.tests.ran },
      lowestProbability: lowest.probability,
      ...(lowest.criterion === undefined ? {} : { lowestCriterion: lowest.criterion }),
      action,
    });
    if (action.action !== 'retry') break;
  }
  const last = steps[steps.length - 1];
  if (last === undefined) throw new TypeError(`${trace.source}: a recorded run needs at least one step`);
  return {
    source: trace.source,
    ...(trace.header.task === undefined ? {} : { task: trace.header.task }),
    ...(trace.header.taskType === undefined ? {} : { taskType: trace.header.taskType }),
    steps,
    final: last.action,
    endedBy: last.action.action === 'retry' ? 'end_of_recording' : 'decision',
    stepsRecorded: trace.steps.length,
  };
}

/** How many replayed runs ended in each action and reason. */
export interface ReplaySummary {
  readonly runs: number;
  readonly byAction: Readonly<Record<CompletionActionKind, number>>;
  readonly byReason: readonly { readonly action: CompletionActionKind; readonly reason: CompletionReason; readonly count: number }[];
  /** Runs whose recording ended while the policy still said `retry`. */
  readonly unfinished: number;
}

/** Counts how the replayed runs ended, per action and per reason. */
export function summarizeReplays(results: readonly ReplayResult[]): ReplaySummary {
  const byAction: Record<CompletionActionKind, number> = { stop_done: 0, retry: 0, handoff_human: 0 };
  const byReason = new Map<string, { action: CompletionActionKind; reason: CompletionReason; count: number }>();
  let unfinished = 0;
  for (const result of results) {
    const { action, reason } = result.final;
    byAction[action] += 1;
    if (result.endedBy === 'end_of_recording') unfinished += 1;
    const key = `${action}/${reason}`;
    const entry = byReason.get(key) ?? { action, reason, count: 0 };
    entry.count += 1;
    byReason.set(key, entry);
  }
  const order: readonly CompletionActionKind[] = ['stop_done', 'retry', 'handoff_human'];
  return {
    runs: results.length,
    byAction,
    byReason: [...byReason.values()].sort(
      (a, b) => order.indexOf(a.action) - order.indexOf(b.action) || a.reason.localeCompare(b.reason),
    ),
    unfinished,
  };
}
