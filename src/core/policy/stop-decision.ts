import type { StopState } from './stop-state.js';

/** The five ways a run ends. */
export const STOP_EXITS = ['success', 'limit', 'gave_up', 'need_help', 'failed'] as const;

/** How a run ended when it stopped: `success`, `limit`, `gave_up`, `need_help` or `failed`. */
export type StopExit = (typeof STOP_EXITS)[number];

/** A value a rule compared: plain JSON. */
export type DecisionValue = string | number | boolean | null | readonly string[] | readonly [number, number];

/**
 * What the rule that fired compared, by name: always `step`, then what each
 * of its conditions read (`ran`, `failed`, `lowestProbability`,
 * `lowestCriterion`, `steps` and `maxSteps`, `cost` and `maxCost`,
 * `stallRounds` and `fingerprint`, `signal`, ...).
 */
export type DecisionValues = Readonly<Record<string, DecisionValue>>;

/**
 * The part of a condition that did not hold: which condition (with its path
 * inside the rule, as `all[1].tests.failed`), the value it read, and how that
 * value falls short. `formatUnmet` writes it as one line, such as
 * `limit.steps: 14 < 20` or `stall.identical: 2 of 3 identical`.
 */
export interface UnmetCondition {
  readonly condition: string;
  readonly actual: DecisionValue;
  readonly relation: string;
}

/** A rule evaluated before the one that fired, and the part of its condition that did not hold. */
export interface DecisionTraceEntry {
  readonly rule: string;
  readonly unmet: UnmetCondition;
}

/** What a `retry` tells the agent: one message, with the failing tests and the unmet criteria it names. */
export interface RetryFeedback {
  readonly message: string;
  readonly failedTests?: readonly string[];
  readonly unmetCriteria?: readonly string[];
}

/** What every {@link StopDecision} carries: the reason name, the values the rule compared, and the trace. */
export interface StopDecisionBase {
  readonly reason: string;
  readonly values: DecisionValues;
  readonly trace: readonly DecisionTraceEntry[];
}

/**
 * The engine's decision, one vocabulary for every driver: `continue`,
 * `retry` (with feedback for the agent) or `stop` with one of the five exits.
 * `rule` is the id of the rule that fired (`null` on a `continue` that no rule
 * decided: reason `no_rule_fired`).
 */
export type StopDecision =
  | (StopDecisionBase & { readonly kind: 'continue'; readonly rule: string | null })
  | (StopDecisionBase & { readonly kind: 'retry'; readonly rule: string; readonly feedback: RetryFeedback })
  | (StopDecisionBase & { readonly kind: 'stop'; readonly rule: string; readonly exit: StopExit });

/** One of the decision kinds. */
export type StopDecisionKind = StopDecision['kind'];

/** What `decide` returns: the state to carry to the next event, and the decision for this one. */
export interface DecideResult {
  readonly state: StopState;
  readonly decision: StopDecision;
}
