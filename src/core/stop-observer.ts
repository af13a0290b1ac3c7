import type { StopDecision } from './policy/stop-decision.js';
import type { StopTotals } from './policy/stop-state.js';
import type { StopOutcome } from './stop-outcome.js';

/** Which driver reported the end of a run. */
export type StopDriver = 'run-agent-loop' | 'stop-hook' | 'ai-sdk' | 'langgraph' | 'custom';

/**
 * How a run ended, as its driver reports it: the final decision when the
 * driver has one (a hook's answer, the stop condition that fired), the
 * outcome when it has one (`runAgentLoop`), and what the telemetry cannot
 * read from either.
 */
export interface StopRunEnd {
  readonly driver: StopDriver;
  /** The last decision, in the engine's vocabulary; a `retry` or `continue` means the run goes on (a blocked stop). */
  readonly decision?: StopDecision;
  readonly outcome?: StopOutcome;
  /** The run's totals, as `decide`'s state carries them (the decision model's calls and spend among them). */
  readonly totals?: Partial<StopTotals>;
  /** The kind of task, for the metrics' `stopwise.task_type` (the telemetry's `taskType` option fills it in otherwise). */
  readonly taskType?: string;
  readonly agentName?: string;
  /** How long people took to answer, one entry per question asked (read from the outcome's trace when absent). */
  readonly humanWaitsMs?: readonly number[];
}

/** One request to the decision model that answered, as the client reported it (the usage as the client reported it, unchecked). */
export interface DecisionModelCallNotice {
  readonly model: string;
  readonly usage?: { readonly inputTokens?: unknown; readonly outputTokens?: unknown };
}

/**
 * Sees what stopwise decides, in every driver of the process: each decision
 * of the engine (`step` is the step decided, `totals` the run's totals when
 * the state carries them, `policy` the policy's name), each request to the
 * decision model, and each run's end. `enableStopTelemetry` of
 * `stopwise/otel` installs one. A method that throws is ignored: an observer
 * never changes a decision.
 */
export interface StopObserver {
  decision?(decision: StopDecision, step: number, totals: StopTotals | undefined, policy: string | undefined): void;
  decisionModelCall?(call: DecisionModelCallNotice): void;
  runEnd?(end: StopRunEnd): void;
}

// One slot per process, under a registered symbol: two copies of the package (the `stopwise` command's bundle and the
// library, or two versions) read the same observer.
const SLOT = Symbol.for('stopwise.stop-observer.v1');

interface ObserverSlot {
  observer: StopObserver | undefined;
}

type Holder = { [SLOT]?: ObserverSlot };

function slot(): ObserverSlot {
  const holder = globalThis as Holder;
  return (holder[SLOT] ??= { observer: undefined });
}

/**
 * Installs the observer of the process (`undefined` removes it) and returns
 * the one it replaces. One observer at a time; to feed several, install one
 * that calls each.
 *
 * @example
 * setStopObserver({ runEnd: (end) => console.log(end.driver, end.outcome?.exit ?? end.decision?.kind) });
 */
export function setStopObserver(observer: StopObserver | undefined): StopObserver | undefined {
  if (observer !== undefined && (typeof observer !== 'object' || observer === null)) {
    throw new TypeError('setStopObserver takes an object with decision, decisionModelCall and runEnd methods, or undefined');
  }
  const current = slot();
  const previous = current.observer;
  current.observer = observer;
  return previous;
}

/** The observer installed now, if any. */
export function currentStopObserver(): StopObserver | undefined {
  return (globalThis as Holder)[SLOT]?.observer;
}

/** Tells the observer about a decision; nothing happens when none is installed. */
export function notifyDecision(decision: StopDecision, step: number, totals?: StopTotals, policy?: string): void {
  const observer = (globalThis as Holder)[SLOT]?.observer;
  if (observer?.decision === undefined) return;
  try {
    observer.decision(decision, step, totals, policy);
  } catch {
    // An observer never changes a decision.
  }
}

/** Tells the observer about a request to the decision model. */
export function notifyDecisionModelCall(call: DecisionModelCallNotice): void {
  const observer = (globalThis as Holder)[SLOT]?.observer;
  if (observer?.decisionModelCall === undefined) return;
  try {
    observer.decisionModelCall(call);
  } catch {
    // An observer never changes a decision.
  }
}

/**
 * Tells the observer that a run ended: the drivers call it once per run, and
 * so can a loop of your own around `decide`, with its last decision and
 * state's totals.
 *
 * @example
 * notifyStopEnd({ driver: 'custom', decision: result.decision, totals: result.state.totals, taskType: 'bugfix' });
 */
export function notifyStopEnd(end: StopRunEnd): void {
  const observer = (globalThis as Holder)[SLOT]?.observer;
  if (observer?.runEnd === undefined) return;
  try {
    observer.runEnd(end);
  } catch {
    // An observer never changes an outcome.
  }
}
