import { describeValue } from '../describe-value.js';
import { assertTestEvidence, type TestEvidence } from '../test-evidence.js';

/**
 * One step of an agent run as the stall detector reads it: a tool call (`tool`,
 * `input`) and its result (`output`, `error`, `exitCode`, `tests`), or a message
 * (`text` and no `tool`; `output` is the reply it got, if any).
 *
 * A message with `role: 'user'` is a new turn from the user (or a person's answer to a
 * hand-off): it starts every count afresh, as OpenHands and Gemini CLI do at each user message.
 *
 * `error: true` or a non-zero `exitCode` marks a failed call; `error: false` or
 * `exitCode: 0` a successful one. When neither is known the detector may infer a
 * failure from the output (see `StallOptions.inferErrors`).
 */
export interface StallStep {
  readonly tool?: string;
  readonly input?: unknown;
  readonly output?: string;
  readonly error?: boolean;
  readonly exitCode?: number | null;
  readonly text?: string;
  readonly tests?: TestEvidence;
  /** `'user'`: a message from the user, a turn boundary. */
  readonly role?: 'user';
}

/** The fields a step may carry. */
export const STALL_STEP_KEYS: readonly (keyof StallStep)[] = ['tool', 'input', 'output', 'error', 'exitCode', 'text', 'tests', 'role'];
const STEP_KEYS: ReadonlySet<string> = new Set(STALL_STEP_KEYS);

/**
 * Throws a `TypeError` naming `at` (such as `event.steps[2]`) when `step` is not
 * shaped like a {@link StallStep}: not an object, an unknown field (a typo such
 * as `exit_code` would otherwise be ignored), or a field of the wrong type.
 */
export function assertStallStep(step: unknown, at: string): asserts step is StallStep {
  if (typeof step !== 'object' || step === null || Array.isArray(step)) throw new TypeError(`${at} must be an object, got ${describeValue(step)}`);
  const record = step as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!STEP_KEYS.has(key)) throw new TypeError(`unknown step field "${key}" in ${at}; expected one of ${STALL_STEP_KEYS.join(', ')}`);
  }
  for (const key of ['tool', 'output', 'text'] as const) {
    if (record[key] !== undefined && typeof record[key] !== 'string') throw new TypeError(`${at}.${key} must be a string, got ${describeValue(record[key])}`);
  }
  if (record.role !== undefined && record.role !== 'user') throw new TypeError(`${at}.role must be 'user' or absent, got ${describeValue(record.role)}`);
  if (record.error !== undefined && typeof record.error !== 'boolean') throw new TypeError(`${at}.error must be a boolean, got ${describeValue(record.error)}`);
  if (record.exitCode !== undefined && record.exitCode !== null && !Number.isInteger(record.exitCode)) {
    throw new TypeError(`${at}.exitCode must be an integer or null, got ${describeValue(record.exitCode)}`);
  }
  if (record.tests !== undefined) {
    try {
      assertTestEvidence(record.tests as TestEvidence);
    } catch (error) {
      throw new TypeError(`${at}.${(error as Error).message}`);
    }
  }
}
