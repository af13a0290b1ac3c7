/** Lowest criterion probability at or above which the decision model "says done". */
export const MIN_CRITERION_PROBABILITY = 0.7;
/** Inclusive lower bound of the retry band: below it, a passing run is handed to a person. */
export const MID_BAND_LOW = 0.4;
/** Hard step cap. */
export const MAX_AGENT_STEPS = 20;
/** Identical progress fingerprints in a row that count as a stall. */
export const STALL_ROUNDS = 3;

/** The numbers a stop decision is made with. Plain data: it serialises as JSON. */
export interface StopPolicy {
  readonly doneThreshold: number;
  readonly midBandLow: number;
  readonly maxSteps: number;
  readonly stallRounds: number;
}

/** The default policy, made of the exported constants. */
export const DEFAULT_POLICY: StopPolicy = Object.freeze({
  doneThreshold: MIN_CRITERION_PROBABILITY,
  midBandLow: MID_BAND_LOW,
  maxSteps: MAX_AGENT_STEPS,
  stallRounds: STALL_ROUNDS,
});

const POLICY_KEYS: ReadonlySet<string> = new Set(['doneThreshold', 'midBandLow', 'maxSteps', 'stallRounds']);

/**
 * Builds a validated policy from the defaults and `overrides`.
 *
 * Throws a `TypeError` naming the field when a threshold is outside [0, 1],
 * `midBandLow` is above `doneThreshold`, the step cap or stall window is not a
 * positive integer, or an unknown field is given.
 *
 * @example
 * const policy = createStopPolicy({ doneThreshold: 0.8, maxSteps: 30 });
 */
export function createStopPolicy(overrides: Partial<StopPolicy> = {}): StopPolicy {
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides)) {
    throw new TypeError('policy overrides must be an object');
  }
  for (const key of Object.keys(overrides)) {
    if (!POLICY_KEYS.has(key)) {
      throw new TypeError(
        `unknown policy field "${key}"; expected one of doneThreshold, midBandLow, maxSteps, stallRounds`,
      );
    }
  }
  // Only a field that is left out takes the default: null is a mistake, not "use the default".
  const pick = <K extends keyof StopPolicy>(key: K): StopPolicy[K] =>
    overrides[key] === undefined ? DEFAULT_POLICY[key] : (overrides[key] as StopPolicy[K]);
  const policy: StopPolicy = {
    doneThreshold: pick('doneThreshold'),
    midBandLow: pick('midBandLow'),
    maxSteps: pick('maxSteps'),
    stallRounds: pick('stallRounds'),
  };
  assertStopPolicy(policy);
  return Object.freeze(policy);
}

/** Throws a `TypeError` naming the field when `policy` is not a valid `StopPolicy`. */
export function assertStopPolicy(policy: StopPolicy): void {
  if (typeof policy !== 'object' || policy === null) {
    throw new TypeError('policy must be an object');
  }
  assertUnitInterval('doneThreshold', policy.doneThreshold);
  assertUnitInterval('midBandLow', policy.midBandLow);
  if (policy.midBandLow > policy.doneThreshold) {
    throw new TypeError(
      `policy.midBandLow (${policy.midBandLow}) must not be above policy.doneThreshold (${policy.doneThreshold})`,
    );
  }
  assertPositiveInteger('maxSteps', policy.maxSteps);
  assertPositiveInteger('stallRounds', policy.stallRounds);
}

function assertUnitInterval(field: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new TypeError(`policy.${field} must be a number in [0, 1], got ${String(value)}`);
  }
}

function assertPositiveInteger(field: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new TypeError(`policy.${field} must be a positive integer, got ${String(value)}`);
  }
}
