import type { StallOptionsInput, StallScoreModel } from '../stall-detection/stall-options.js';
import type { StallPattern } from '../stall-detection/stall-pattern.js';
import type { StopExit } from './stop-decision.js';

/** The version of the policy document format this package reads and writes. */
export const STOP_POLICY_VERSION = 2;

/**
 * A stop policy as a JSON document: an ordered list of rules. The first rule
 * whose `when` holds decides, so order is priority, and a limit rule placed
 * first is a veto no judgement can override. Read one from untrusted JSON
 * with `parseStopPolicy`; `stopwise/stop-policy.schema.json` is its JSON Schema.
 */
export interface StopPolicyDocument {
  readonly $schema?: string;
  readonly version: typeof STOP_POLICY_VERSION;
  /** A name for logs and reports. */
  readonly name?: string;
  readonly rules: readonly StopRule[];
}

/** One rule: when its condition holds, its outcome is the decision. */
export interface StopRule {
  /** Unique within the policy; every decision names the rule that fired by it. */
  readonly id: string;
  readonly when: RuleCondition;
  readonly then: RuleOutcome;
  readonly description?: string;
}

/**
 * What a rule decides: go on, retry with feedback for the agent, or stop with
 * one of the five exits. `reason` is a name for logs and metrics.
 */
export type RuleOutcome =
  | { readonly kind: 'continue'; readonly reason?: string }
  | { readonly kind: 'retry'; readonly reason: string }
  | { readonly kind: 'stop'; readonly exit: StopExit; readonly reason: string };

/** The counters a `limit` condition compares; each is reached when its total is at or above `max`. */
export const LIMIT_NAMES = [
  'steps',
  'wallClockMs',
  'inputTokens',
  'outputTokens',
  'totalTokens',
  'cost',
  'toolErrors',
  'decisionModelCalls',
  'decisionModelCost',
] as const;

/** One of {@link LIMIT_NAMES}. */
export type LimitName = (typeof LIMIT_NAMES)[number];

/**
 * What the test evidence of the event says: `no_tests_ran` (`ran === 0`, or
 * no evidence at all), `failed`, `passed`, and against the event's tree
 * fingerprint `fresh` (taken on this tree) or `stale` (taken on another, or
 * on an unknown one).
 */
export const TEST_STATES = ['no_tests_ran', 'failed', 'passed', 'fresh', 'stale'] as const;
/** The finish signal kinds a `signal` condition matches; `none` is a step that signalled nothing. */
export const SIGNAL_STATES = ['done', 'give_up', 'need_help', 'none'] as const;
/** What came of asking a person: `answered`, or `timed_out` (the wait's deadline passed). */
export const HUMAN_STATES = ['answered', 'timed_out'] as const;
/**
 * What came of asking the decision model: `answered` (the event carries
 * criterion probabilities), `unavailable` (it was asked and could not answer)
 * or `none` (there is none to ask, or the driver did not ask it).
 */
export const DECISION_MODEL_STATES = ['answered', 'unavailable', 'none'] as const;
/**
 * What the provider said of the step's generation, when it did not end
 * normally: its own `token_limit` or `step_limit` cut it short, or it `failed`
 * (it could not be read: an invalid tool call, an unknown finish reason).
 */
export const PROVIDER_STATES = ['token_limit', 'step_limit', 'failed'] as const;

/**
 * A comparison of a criterion's probability (the lowest one, or a named one):
 * exactly one of `gte` (at or above), `lt` (below) or `within` (`[low, high)`).
 */
export type CriteriaCondition = {
  /** The criterion to read; without it, the lowest probability of all (1 when there are no criteria). */
  readonly criterion?: string;
} & (
  | { readonly gte: number; readonly lt?: never; readonly within?: never }
  | { readonly lt: number; readonly gte?: never; readonly within?: never }
  | { readonly within: readonly [number, number]; readonly gte?: never; readonly lt?: never }
);

/**
 * A condition of a rule: one key names its kind. Leaves read the event and
 * the state; `all`, `any`, `not` and `atLeast` (k of n) combine them.
 *
 * - `limit`: a run total (or the step number, or the wall clock) is at or above `max`;
 * - `tests`, `check`, `verification`: the deterministic evidence of the event;
 * - `criteria`: the decision model's probabilities (asked only when a rule needs them);
 * - `signal`: what the model signalled (its `finish` call); `provider`: what the provider said of the generation;
 * - `human`: what came of asking a person;
 * - `stall`: the last `rounds` progress fingerprints are identical, the step-history detector found a stall, or a
 *   learned stall score (`calibrate-stall --model score`) reached its threshold;
 * - `retries`: the decisions in a row before this event that were `retry` (a stop hook's blocks in a row);
 * - `decisionModel`: what came of asking the decision model; never waits for an answer, so it tells "not asked" apart;
 * - `reentered`: the driver says this step follows a retry of its own that the state may not know of
 *   (a host's `stop_hook_active`);
 * - `taskType`: the event's task type is this one (a calibrated policy has rules per task type).
 */
export type RuleCondition =
  | { readonly all: readonly RuleCondition[] }
  | { readonly any: readonly RuleCondition[] }
  | { readonly not: RuleCondition }
  | { readonly atLeast: { readonly count: number; readonly of: readonly RuleCondition[] } }
  | { readonly always: true }
  | { readonly limit: { readonly of: LimitName; readonly max: number } }
  | { readonly tests: (typeof TEST_STATES)[number] }
  | { readonly check: { readonly name: string; readonly is: 'passed' | 'failed' | 'missing' } }
  | { readonly criteria: CriteriaCondition }
  | { readonly signal: (typeof SIGNAL_STATES)[number] }
  | { readonly provider: (typeof PROVIDER_STATES)[number] }
  | { readonly verification: 'passed' | 'failed' }
  | { readonly human: (typeof HUMAN_STATES)[number] }
  | { readonly stall: { readonly detector: 'identical_fingerprints'; readonly rounds: number } }
  | { readonly stall: StepHistoryCondition }
  | { readonly stall: StallScoreCondition }
  | { readonly retries: { readonly atLeast: number } }
  | { readonly decisionModel: (typeof DECISION_MODEL_STATES)[number] }
  | { readonly reentered: true }
  | { readonly taskType: string };

/**
 * The step-history stall detector as a condition: it holds on an event one of
 * whose tool steps (`event.steps`) the detector found stalled, with one of
 * `patterns` when they are given. `options` are the detector's own
 * (thresholds per pattern, `false` to turn one off, `tools` for what
 * identifies a call).
 */
export interface StepHistoryCondition {
  readonly detector: 'step_history';
  readonly patterns?: readonly StallPattern[];
  readonly options?: StallOptionsInput;
}

/**
 * A learned stall score as a condition (what `stopwise calibrate-stall --model score --policy-out` writes): it
 * holds on an event one of whose tool steps (`event.steps`) brought the score of `model` to its threshold. The
 * score's state (its window of steps) is kept in the stop state, one per condition; a step with `role: 'user'`
 * starts it afresh. A model whose threshold is `null` (none could be certified) never holds.
 */
export interface StallScoreCondition {
  readonly detector: 'score';
  readonly model: StallScoreModel;
}
