import * as z from 'zod/mini';
import { describeValue } from '../describe-value.js';
import {
  STALL_OPTION_PATTERN_KEYS,
  STALL_SCORE_FEATURES,
  STALL_SCORE_MAX_WINDOW,
  resolveStallOptions,
  type StallOptions,
  type StallOptionsInput,
  type StallScoreFeature,
  type StallScoreModel,
} from './stall-options.js';

// The stall detector's two schemas: its options as a configuration or a policy gives them, and a learned score
// model. Each is built on its first use (z.lazy): building zod schemas costs start-up time, and a hook reads them only
// when the configuration or the policy has stall settings.

type PatternKey = (typeof STALL_OPTION_PATTERN_KEYS)[number];

/**
 * The fields of each pattern's options and their kind: the one table the schema is made from, checked against
 * {@link StallOptions} by the compiler (a field added to an option and not here does not compile).
 */
const STALL_OPTION_FIELDS: {
  readonly [K in PatternKey]: { readonly [F in keyof Exclude<StallOptions[K], false>]-?: Exclude<StallOptions[K], false>[F] extends boolean ? 'boolean' : 'int' };
} = {
  repeatedResult: { repeats: 'int', failingRepeats: 'int', pollingRepeats: 'int' },
  repeatedFailingCall: { repeats: 'int' },
  repeatedError: { repeats: 'int', infrastructureRepeats: 'int' },
  cycle: { maxPeriod: 'int', repeats: 'int' },
  revisit: { repeats: 'int', window: 'int' },
  repeatedPair: { repeats: 'int', window: 'int' },
  noProgress: { repeats: 'int', window: 'int', nothingNew: 'boolean' },
  monologue: { repeats: 'int' },
  repeatedCall: { repeats: 'int' },
};

/**
 * The schema of {@link StallOptionsInput}, made from the defaults: each pattern takes `false` or some of its
 * default's fields; a value the detector refuses (a threshold below its minimum) is an issue at the pattern's key.
 */
export const stallOptionsInputSchema: z.ZodMiniType<StallOptionsInput> = z.lazy(() => {
  const argumentRuleSchema = z.union([z.boolean(), z.strictObject({ argument: z.string(), values: z.array(z.string()) })]);
  const toolIdentitySchema = z.strictObject({
    arguments: z.exactOptional(z.array(z.string())),
    polling: z.exactOptional(argumentRuleSchema),
    repeatable: z.exactOptional(argumentRuleSchema),
  });
  return z
    .strictObject({
      ...Object.fromEntries(
        STALL_OPTION_PATTERN_KEYS.map((key) => {
          const fields = Object.entries(STALL_OPTION_FIELDS[key]).map(([field, kind]) => [field, z.exactOptional(kind === 'boolean' ? z.boolean() : z.int())] as const);
          return [key, z.exactOptional(z.union([z.literal(false), z.strictObject(Object.fromEntries(fields))]))];
        }),
      ),
      inferErrors: z.exactOptional(z.boolean()),
      ignoredArguments: z.exactOptional(z.array(z.string())),
      tools: z.exactOptional(z.record(z.string(), toolIdentitySchema)),
    })
    .check(
      z.superRefine((options, context) => {
        try {
          resolveStallOptions(options as StallOptionsInput);
        } catch (error) {
          const key = /stall option (\S+) /.exec((error as Error).message)?.[1];
          context.addIssue({ code: 'custom', message: (error as Error).message.replace(/^stall option \S+ /, ''), path: key === undefined ? [] : key.split('.'), input: options });
        }
      }),
    );
}) as unknown as z.ZodMiniType<StallOptionsInput>;

/**
 * The schema of a {@link StallScoreModel}, as a policy's `{ stall: { detector: 'score', model } }` condition and
 * `calibrate-stall --model score --json` carry it: every weight finite and at least 0 (the score is monotone).
 */
export const stallScoreModelSchema: z.ZodMiniType<StallScoreModel> = z.lazy(() =>
  z.strictObject({
  version: z.literal(1),
  window: z.int().check(z.minimum(2), z.maximum(STALL_SCORE_MAX_WINDOW)),
  bias: z.number(),
  weights: z.strictObject(
    Object.fromEntries(STALL_SCORE_FEATURES.map((name) => [name, z.number().check(z.minimum(0, { message: 'must be at least 0: the score is monotone' }))])) as Record<
      StallScoreFeature,
      z.ZodMiniNumber
    >,
  ),
  threshold: z.nullable(z.number().check(z.minimum(0), z.maximum(1))),
  }),
) as unknown as z.ZodMiniType<StallScoreModel>;

/** Throws a `TypeError` naming the field when `value` is not a {@link StallScoreModel} (weights must be finite and at least 0). */
export function assertStallScoreModel(value: unknown): asserts value is StallScoreModel {
  const parsed = stallScoreModelSchema.safeParse(value);
  if (parsed.success) return;
  const issue = parsed.error.issues[0];
  const path = issue === undefined || issue.path.length === 0 ? '' : `.${issue.path.join('.')}`;
  throw new TypeError(`stall score model${path}: ${issue?.message ?? 'invalid'} (got ${describeValue(value)})`);
}
