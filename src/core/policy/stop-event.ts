import { assertProbability, type CriterionProbabilities } from '../criterion-probabilities.js';
import { describeValue } from '../describe-value.js';
import { MAX_FINGERPRINT_LENGTH } from '../fingerprint.js';
import { FINISH_KINDS, type FinishSignal } from '../finish-signal.js';
import { assertStallStep, type StallStep } from '../stall-detection/stall-step.js';
import { PROVIDER_STATES } from './stop-policy-document.js';
import { assertTestEvidence, type TestEvidence } from '../test-evidence.js';

/** What one step used (its own share, not the running total); every field defaults to 0. */
export interface StopEventUsage {
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly cost?: number;
  readonly toolErrors?: number;
  /** Requests made to the decision model for this step. */
  readonly decisionModelCalls?: number;
  /** What those requests cost. */
  readonly decisionModelCost?: number;
}

/** The usage counters an event may carry. */
export const STOP_EVENT_USAGE_KEYS: readonly (keyof StopEventUsage)[] = [
  'inputTokens',
  'outputTokens',
  'cost',
  'toolErrors',
  'decisionModelCalls',
  'decisionModelCost',
];

/** What came of asking a person during the step (the shape of a run's `HumanExchange` fits). */
export interface StopEventHuman {
  readonly answer?: string;
  readonly timedOut: boolean;
}

/**
 * One completed step, as a driver reports it to `decide`. Only `step` is
 * required; each condition reads the field it needs:
 *
 * - `step`: the number of the step just completed (from 1; numbers may skip);
 *   0 is the moment before the first step (a budget spent before the run
 *   starts), which only a state that has decided nothing takes;
 * - `tests`: the test evidence (absent: no tests ran);
 * - `probabilities`: the decision model's P(true) per criterion (absent: not
 *   asked yet, see `needsJudgement`);
 * - `output`: the agent's output, fingerprinted with `tests` for the stall rule;
 * - `fingerprint`: the step's progress fingerprint when the driver keeps its
 *   own (`fingerprintProgress`), or `null` when the step has none and does not
 *   count toward a stall; absent, it is made from `tests` and `output`;
 * - `usage`: what this step used, added to the run's totals;
 * - `elapsedMs`: the run's wall clock so far;
 * - `signal`: the finish signal of this step (absent or null: none);
 * - `provider`: what the provider said of the step's generation, when it
 *   did not end normally: `token_limit` or `step_limit` (the provider's own
 *   limit cut it short) or `failed` (it could not be read);
 * - `verification`: code's answer to a `done` claim;
 * - `checks`: named deterministic checks and whether each passed;
 * - `human`: what came of asking a person;
 * - `tree`: the fingerprint of the working tree now, to tell fresh evidence from stale;
 * - `steps`: the tool calls and messages of this step, in order, for the
 *   `step_history` stall detector (`StallStep`: `tool`, `input`, `output`,
 *   `error`, `exitCode`, `text`, `tests`);
 * - `decisionModel`: why the event carries no `probabilities`: `'unavailable'` (the
 *   decision model was asked and could not answer) or `'none'` (there is no
 *   model to ask, or the driver chose not to); a criteria condition then does
 *   not hold instead of waiting for an answer;
 * - `reentered`: the host says this step follows a retry (a block) of the
 *   driver's own, as Claude Code's `stop_hook_active` does;
 * - `taskType`: the kind of task of the run (`bugfix`, `feature`, ...), for `taskType` conditions.
 */
export interface StopEvent {
  readonly step: number;
  readonly tests?: TestEvidence;
  readonly probabilities?: CriterionProbabilities;
  readonly output?: string;
  readonly fingerprint?: string | null;
  readonly usage?: StopEventUsage;
  readonly elapsedMs?: number;
  readonly signal?: FinishSignal | null;
  readonly provider?: 'token_limit' | 'step_limit' | 'failed';
  readonly verification?: { readonly ok: boolean; readonly unmet?: readonly string[] };
  readonly checks?: Readonly<Record<string, boolean>>;
  readonly human?: StopEventHuman;
  readonly tree?: string;
  readonly steps?: readonly StallStep[];
  readonly decisionModel?: 'unavailable' | 'none';
  readonly reentered?: boolean;
  readonly taskType?: string;
}

const EVENT_KEYS: ReadonlySet<string> = new Set([
  'step',
  'tests',
  'probabilities',
  'output',
  'fingerprint',
  'usage',
  'elapsedMs',
  'signal',
  'provider',
  'verification',
  'checks',
  'human',
  'tree',
  'steps',
  'decisionModel',
  'reentered',
  'taskType',
]);
const USAGE_KEYS: ReadonlySet<string> = new Set(STOP_EVENT_USAGE_KEYS);

/**
 * Throws a `TypeError` naming the field when `event` is not a valid
 * `StopEvent`: an unknown field (a misspelt usage counter would otherwise be
 * ignored and could switch a limit off), a step that is not a positive
 * integer, a negative or non-finite counter, or malformed evidence.
 */
export function assertStopEvent(event: StopEvent): void {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) {
    throw new TypeError(`a stop event must be an object, got ${describeValue(event)}`);
  }
  for (const key of Object.keys(event)) {
    if (!EVENT_KEYS.has(key)) throw new TypeError(`unknown stop event field "${key}"; expected one of ${[...EVENT_KEYS].join(', ')}`);
  }
  if (!Number.isInteger(event.step) || event.step < 0) {
    throw new TypeError(`event.step must be a non-negative integer (the step just completed; 0 before the first), got ${describeValue(event.step)}`);
  }
  if (event.tests !== undefined) assertTestEvidence(event.tests);
  if (event.probabilities !== undefined) {
    const probabilities = event.probabilities;
    if (typeof probabilities !== 'object' || probabilities === null || Array.isArray(probabilities)) {
      throw new TypeError(`event.probabilities must be an object of named probabilities, got ${describeValue(probabilities)}`);
    }
    for (const name of Object.keys(probabilities)) assertProbability(name, probabilities[name]);
  }
  if (event.output !== undefined && typeof event.output !== 'string') {
    throw new TypeError(`event.output must be a string, got ${describeValue(event.output)}`);
  }
  if (event.fingerprint !== undefined && event.fingerprint !== null && !(typeof event.fingerprint === 'string' && event.fingerprint.length <= MAX_FINGERPRINT_LENGTH)) {
    throw new TypeError(`event.fingerprint must be a progress fingerprint (a string of at most ${MAX_FINGERPRINT_LENGTH} characters, such as fingerprintProgress gives) or null, got ${describeValue(event.fingerprint)}`);
  }
  if (event.provider !== undefined && !(PROVIDER_STATES as readonly unknown[]).includes(event.provider)) {
    throw new TypeError(`event.provider must be one of ${PROVIDER_STATES.join(', ')} (leave it out for a generation that ended normally), got ${describeValue(event.provider)}`);
  }
  if (event.usage !== undefined) assertUsage(event.usage);
  if (event.elapsedMs !== undefined) assertAmount('event.elapsedMs', event.elapsedMs);
  if (event.signal !== undefined && event.signal !== null) {
    const signal = event.signal as unknown as Record<string, unknown>;
    if (typeof signal !== 'object' || !(FINISH_KINDS as readonly unknown[]).includes(signal.kind)) {
      throw new TypeError(`event.signal.kind must be one of ${FINISH_KINDS.join(', ')}, got ${describeValue(signal?.kind)}`);
    }
  }
  if (event.verification !== undefined) {
    const verification = event.verification as unknown as Record<string, unknown>;
    if (typeof verification !== 'object' || verification === null || typeof verification.ok !== 'boolean') {
      throw new TypeError('event.verification must be { ok: boolean, unmet?: string[] }');
    }
    if (verification.unmet !== undefined && !(Array.isArray(verification.unmet) && verification.unmet.every((name) => typeof name === 'string'))) {
      throw new TypeError('event.verification.unmet must be an array of strings');
    }
  }
  if (event.checks !== undefined) {
    const checks = event.checks as unknown;
    if (typeof checks !== 'object' || checks === null || Array.isArray(checks)) {
      throw new TypeError(`event.checks must be an object of named booleans, got ${describeValue(checks)}`);
    }
    for (const [name, passed] of Object.entries(checks)) {
      if (typeof passed !== 'boolean') throw new TypeError(`event.checks["${name}"] must be a boolean, got ${describeValue(passed)}`);
    }
  }
  if (event.human !== undefined) {
    const human = event.human as unknown as Record<string, unknown>;
    if (typeof human !== 'object' || human === null || typeof human.timedOut !== 'boolean') {
      throw new TypeError('event.human must be { timedOut: boolean, answer?: string }');
    }
    if (human.answer !== undefined && typeof human.answer !== 'string') {
      throw new TypeError(`event.human.answer must be a string, got ${describeValue(human.answer)}`);
    }
  }
  if (event.steps !== undefined) assertSteps(event.steps);
  if (event.decisionModel !== undefined && event.decisionModel !== 'unavailable' && event.decisionModel !== 'none') {
    throw new TypeError(`event.decisionModel must be "unavailable" or "none" (leave it out when the event carries probabilities), got ${describeValue(event.decisionModel)}`);
  }
  if (event.decisionModel !== undefined && event.probabilities !== undefined) {
    throw new TypeError(`event.decisionModel is "${event.decisionModel}" but the event carries probabilities; give one or the other`);
  }
  if (event.reentered !== undefined && typeof event.reentered !== 'boolean') {
    throw new TypeError(`event.reentered must be a boolean, got ${describeValue(event.reentered)}`);
  }
  if (event.taskType !== undefined && (typeof event.taskType !== 'string' || event.taskType === '')) {
    throw new TypeError(`event.taskType must be a non-empty string, got ${describeValue(event.taskType)}`);
  }
  if (event.tree !== undefined && typeof event.tree !== 'string') {
    throw new TypeError(`event.tree must be a string (a tree fingerprint), got ${describeValue(event.tree)}`);
  }
}

function assertSteps(steps: readonly StallStep[]): void {
  if (!Array.isArray(steps)) throw new TypeError(`event.steps must be an array of tool steps, got ${describeValue(steps)}`);
  steps.forEach((step: unknown, index) => assertStallStep(step, `event.steps[${index}]`));
}

function assertUsage(usage: StopEventUsage): void {
  if (typeof usage !== 'object' || usage === null || Array.isArray(usage)) {
    throw new TypeError(`event.usage must be an object, got ${describeValue(usage)}`);
  }
  for (const key of Object.keys(usage)) {
    if (!USAGE_KEYS.has(key)) {
      throw new TypeError(`unknown usage counter "${key}" in event.usage; expected one of ${STOP_EVENT_USAGE_KEYS.join(', ')}`);
    }
    assertAmount(`event.usage.${key}`, usage[key as keyof StopEventUsage]);
  }
}

function assertAmount(field: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new TypeError(`${field} must be a non-negative finite number, got ${describeValue(value)}`);
  }
}
