import type { StallOptionsInput } from '../stall-detection/stall-options.js';
import type { StallPattern } from '../stall-detection/stall-pattern.js';
import type { StopExit } from '../stop-outcome.js';

/** The version of the policy document format this package reads and writes. */
export const STOP_POLICY_VERSION = 1;

/**
 * A stop policy as a JSON document: an ordered list of rules. The first rule
 * whose `when` holds decides, so order is priority, and a limit rule placed
 * first is a veto no judgement can override. Read one from untrusted JSON
 * with `parseStopPolicy`.
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
  readonly when: StopCondition;
  readonly then: StopRuleOutcome;
  readonly description?: string;
}

/**
 * What a rule decides: go on, retry with feedback for the agent, or stop with
 * one of the five exits. `reason` is a name for logs and metrics.
 */
export type StopRuleOutcome =
  | { readonly kind: 'continue'; readonly reason?: string }
  | { readonly kind: 'retry'; readonly reason: string }
  | { readonly kind: 'stop'; readonly exit: StopExit; readonly reason: string };

/** The counters a `limit` condition can compare; each is reached when its total is at or above `max`. */
export const LIMIT_NAMES = [
  'steps',
  'wallClockMs',
  'inputTokens',
  'outputTokens',
  'totalTokens',
  'cost',
  'toolErrors',
  'judgeCalls',
  'judgeCost',
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

/** One of {@link TEST_STATES}. */
export type TestState = (typeof TEST_STATES)[number];

/** The finish signal kinds a `signal` condition matches; `none` is a turn that signalled nothing. */
export const SIGNAL_STATES = ['done', 'give_up', 'need_help', 'none'] as const;

/** One of {@link SIGNAL_STATES}. */
export type SignalState = (typeof SIGNAL_STATES)[number];

/** What came of asking a person: `answered`, or `timed_out` (the wait's deadline passed). */
export const HUMAN_STATES = ['answered', 'timed_out'] as const;

/** One of {@link HUMAN_STATES}. */
export type HumanState = (typeof HUMAN_STATES)[number];

/**
 * What came of asking the decision model, as a `judge` condition reads it:
 * `answered` (the event carries criterion probabilities), `unavailable` (it
 * was asked and could not answer: down, timed out, answered garbage; the
 * event's `judge` is `'unavailable'`) or `none` (there is no decision model
 * to ask, or the driver did not ask it; the event's `judge` is `'none'`).
 */
export const JUDGE_STATES = ['answered', 'unavailable', 'none'] as const;

/** One of {@link JUDGE_STATES}. */
export type JudgeState = (typeof JUDGE_STATES)[number];

/**
 * The stall detectors a policy can name: `identical_fingerprints` (the seed's
 * rule: the last `rounds` progress fingerprints are identical) and
 * `step_history` (the stall detector over the tool steps events carry, see
 * `observeStep`).
 */
export const STALL_DETECTORS = ['identical_fingerprints', 'step_history'] as const;

/** One of {@link STALL_DETECTORS}. */
export type StallDetectorName = (typeof STALL_DETECTORS)[number];

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
 * - `retries`: the decisions in a row before this event that were `retry`
 *   (a stop hook's blocks in a row) are at least `atLeast`;
 * - `judge`: what came of asking the decision model ({@link JUDGE_STATES});
 *   never waits for an answer, so it is how a rule tells "not asked" apart;
 * - `reentered`: the driver says this step follows a retry of its own that
 *   the state may not know of (a host's `stop_hook_active`, Cursor's `loop_count`);
 * - `taskType`: the event's task type is this one (a calibrated policy has rules per task type).
 */
export type StopCondition =
  | { readonly all: readonly StopCondition[] }
  | { readonly any: readonly StopCondition[] }
  | { readonly not: StopCondition }
  | { readonly atLeast: { readonly count: number; readonly of: readonly StopCondition[] } }
  | { readonly always: true }
  | { readonly limit: { readonly of: LimitName; readonly max: number } }
  | { readonly tests: TestState }
  | { readonly check: { readonly name: string; readonly is: 'passed' | 'failed' | 'missing' } }
  | { readonly criteria: CriteriaCondition }
  | { readonly signal: SignalState }
  | { readonly verification: 'passed' | 'failed' }
  | { readonly human: HumanState }
  | { readonly stall: { readonly detector: 'identical_fingerprints'; readonly rounds: number } }
  | { readonly stall: StepHistoryCondition }
  | { readonly retries: { readonly atLeast: number } }
  | { readonly judge: JudgeState }
  | { readonly reentered: true }
  | { readonly taskType: string };

/**
 * The step-history stall detector as a condition: it holds on an event one of
 * whose tool steps (`event.steps`) the detector found stalled, with one of
 * `patterns` when they are given. `options` are the detector's own
 * (`StallOptionsInput`: thresholds per pattern, `false` to turn one off,
 * `tools` for what identifies a call).
 */
export interface StepHistoryCondition {
  readonly detector: 'step_history';
  readonly patterns?: readonly StallPattern[];
  readonly options?: StallOptionsInput;
}

/** The kinds of condition, as the key that tags each. */
export const CONDITION_KINDS = [
  'all',
  'any',
  'not',
  'atLeast',
  'always',
  'limit',
  'tests',
  'check',
  'criteria',
  'signal',
  'verification',
  'human',
  'stall',
  'retries',
  'judge',
  'reentered',
  'taskType',
] as const;

/** One of {@link CONDITION_KINDS}. */
export type ConditionKind = (typeof CONDITION_KINDS)[number];
