import * as z from 'zod/mini';
import { formatSchemaProblems, schemaProblems } from './schema-issues.js';

/** Lowest criterion probability at or above which the decision model "says done". */
export const MIN_CRITERION_PROBABILITY = 0.7;
/** Inclusive lower bound of the retry band: below it, a passing run is handed to a person. */
export const MID_BAND_LOW = 0.4;
/** Hard step cap. */
export const MAX_AGENT_STEPS = 20;
/** Identical progress fingerprints in a row that count as a stall. */
export const STALL_ROUNDS = 3;

/** The numbers of the seed's and the hook's presets. Plain data: it serialises as JSON. */
export interface StopPolicy {
  readonly doneThreshold: number;
  readonly midBandLow: number;
  readonly maxSteps: number;
  readonly stallRounds: number;
}

/** The default numbers, made of the exported constants. */
export const DEFAULT_POLICY: StopPolicy = Object.freeze({
  doneThreshold: MIN_CRITERION_PROBABILITY,
  midBandLow: MID_BAND_LOW,
  maxSteps: MAX_AGENT_STEPS,
  stallRounds: STALL_ROUNDS,
});

const probability = () => z.number().check(z.minimum(0), z.maximum(1));

/** The numbers, each optional (the rest from the defaults), as a configuration or a policy file gives them. */
export const stopPolicyNumbersSchema = z.lazy(() =>
  z
    .strictObject({
      doneThreshold: z.exactOptional(probability()),
      midBandLow: z.exactOptional(probability()),
      maxSteps: z.exactOptional(z.int().check(z.positive())),
      stallRounds: z.exactOptional(z.int().check(z.positive())),
    })
    .check(
      z.superRefine((numbers, context) => {
        const low = numbers.midBandLow ?? MID_BAND_LOW;
        const done = numbers.doneThreshold ?? MIN_CRITERION_PROBABILITY;
        if (low > done) context.addIssue({ code: 'custom', message: `must not be above doneThreshold (${low} > ${done})`, path: ['midBandLow'], input: low });
      }),
    ),
);

/**
 * Builds validated numbers from the defaults and `overrides`. Throws a
 * `TypeError` naming every field that is wrong: a threshold outside [0, 1],
 * `midBandLow` above `doneThreshold`, a step cap or stall window that is not a
 * positive integer, an unknown field (with the nearest known one).
 *
 * @example
 * const policy = createStopPolicy({ doneThreshold: 0.8, maxSteps: 30 });
 */
export function createStopPolicy(overrides: Partial<StopPolicy> = {}): StopPolicy {
  const parsed = stopPolicyNumbersSchema.safeParse(overrides, { reportInput: true });
  if (!parsed.success) {
    throw new TypeError(formatSchemaProblems(schemaProblems(stopPolicyNumbersSchema, parsed.error.issues, overrides).map((problem) => ({ ...problem, path: `policy.${problem.path}`.replace(/\.$/, '') }))));
  }
  return Object.freeze({ ...DEFAULT_POLICY, ...parsed.data });
}

/** Throws a `TypeError` naming the field when `policy` is not a valid `StopPolicy`. */
export function assertStopPolicy(policy: StopPolicy): void {
  if (policy === DEFAULT_POLICY) return;
  if (typeof policy !== 'object' || policy === null) throw new TypeError('policy must be an object');
  createStopPolicy({ doneThreshold: policy.doneThreshold, midBandLow: policy.midBandLow, maxSteps: policy.maxSteps, stallRounds: policy.stallRounds });
}
