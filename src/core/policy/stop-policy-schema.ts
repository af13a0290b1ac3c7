import * as z from 'zod/mini';
import { optionalBuiltOnUse } from '../optional-built-on-use.js';
import { stallOptionsInputSchema, stallScoreModelSchema } from '../stall-detection/stall-schemas.js';
import { STALL_PATTERNS } from '../stall-detection/stall-pattern.js';
import { STOP_EXITS } from './stop-decision.js';
import {
  DECISION_MODEL_STATES,
  HUMAN_STATES,
  LIMIT_NAMES,
  PROVIDER_STATES,
  SIGNAL_STATES,
  STOP_POLICY_VERSION,
  TEST_STATES,
  type RuleCondition,
  type RuleOutcome,
  type StopPolicyDocument,
  type StopRule,
} from './stop-policy-document.js';

// The schema of a stop policy document: its one definition. parseStopPolicy validates with it, and
// schemas/stop-policy.schema.json is generated from it (scripts/generate-schemas.ts; a test compares).
// Recursive zod output types are cut to `any` in published declarations, so the document's types are declared in
// stop-policy-document.ts and the schema is typed against them: a schema that drifts from the types does not compile.
// It lives in a file of its own, and each part is built on its first use (z.lazy, getters): loading and building zod
// schemas costs start-up time, and a hook's tool event, or a stop whose configuration names no policy, needs none.

const text = (): z.ZodMiniString => z.string().check(z.minLength(1), z.regex(/\S/));
const probability = (): z.ZodMiniNumber => z.number().check(z.minimum(0), z.maximum(1));
const comparison = <K extends string, T extends z.core.SomeType>(key: K, value: T) =>
  z.strictObject({ criterion: z.exactOptional(text()), [key]: value } as { criterion: z.ZodMiniExactOptional<z.ZodMiniString>} & Record<K, T>);

const leaf = <K extends string, T extends z.core.SomeType>(key: K, value: T) => z.strictObject({ [key]: value } as Record<K, T>);

/** The condition kinds, each with its schema, built when read (the key that tags a condition is the kind). */
const conditionSchemas = {
  get all() {
    return leaf('all', z.array(conditionSchema));
  },
  get any() {
    return leaf('any', z.array(conditionSchema));
  },
  get not() {
    return leaf('not', conditionSchema);
  },
  get atLeast() {
    return leaf(
      'atLeast',
      z
        .strictObject({ count: z.int().check(z.minimum(1)), of: z.array(conditionSchema).check(z.minLength(1)) })
        .check(z.refine((spec) => spec.count <= spec.of.length, { message: 'must not exceed the number of conditions in "of"', path: ['count'] })),
    );
  },
  get always() {
    return leaf('always', z.literal(true));
  },
  get limit() {
    return leaf(
      'limit',
      z
        .strictObject({ of: z.enum(LIMIT_NAMES), max: z.number().check(z.minimum(0)) })
        .check(z.refine((spec) => spec.of !== 'steps' || Number.isInteger(spec.max), { message: 'a step cap must be a whole number of steps', path: ['max'] })),
    );
  },
  get tests() {
    return leaf('tests', z.enum(TEST_STATES));
  },
  get check() {
    return leaf('check', z.strictObject({ name: text(), is: z.enum(['passed', 'failed', 'missing']) }));
  },
  get criteria() {
    return leaf(
      'criteria',
      z.union([
        comparison('gte', probability()),
        comparison('lt', probability()),
        comparison('within', z.tuple([probability(), probability()]).check(z.refine(([low, high]) => low <= high, { message: 'low is above high' }))),
      ]),
    );
  },
  get signal() {
    return leaf('signal', z.enum(SIGNAL_STATES));
  },
  get provider() {
    return leaf('provider', z.enum(PROVIDER_STATES));
  },
  get verification() {
    return leaf('verification', z.enum(['passed', 'failed']));
  },
  get human() {
    return leaf('human', z.enum(HUMAN_STATES));
  },
  get stall() {
    return leaf(
      'stall',
      z.union([
        z.strictObject({ detector: z.literal('identical_fingerprints'), rounds: z.int().check(z.minimum(1)) }),
        z.strictObject({
          detector: z.literal('step_history'),
          patterns: z.exactOptional(z.array(z.enum(STALL_PATTERNS)).check(z.minLength(1))),
          options: optionalBuiltOnUse(() => stallOptionsInputSchema),
        }),
        z.strictObject({ detector: z.literal('score'), model: stallScoreModelSchema }),
      ]),
    );
  },
  get retries() {
    return leaf('retries', z.strictObject({ atLeast: z.int().check(z.minimum(1)) }));
  },
  get decisionModel() {
    return leaf('decisionModel', z.enum(DECISION_MODEL_STATES));
  },
  get reentered() {
    return leaf('reentered', z.literal(true));
  },
  get taskType() {
    return leaf('taskType', text());
  },
};

/** The kinds of condition, as the key that tags each, in the order of the schema's branches. */
export const CONDITION_KINDS = Object.keys(Object.getOwnPropertyDescriptors(conditionSchemas)) as readonly (keyof typeof conditionSchemas)[];

/** A condition: exactly one of the kinds. */
export const conditionSchema: z.ZodMiniType<RuleCondition> = z.lazy(() =>
  z.union(CONDITION_KINDS.map((kind) => conditionSchemas[kind]) as unknown as [z.ZodMiniType<RuleCondition>, ...z.ZodMiniType<RuleCondition>[]]),
);

/** The whole document, built on its first use (a hook whose configuration names no policy never builds it). */
export const stopPolicySchema: z.ZodMiniType<StopPolicyDocument> = z.lazy(() => {
  const outcomeSchema: z.ZodMiniType<RuleOutcome> = z.union([
    z.strictObject({ kind: z.literal('continue'), reason: z.exactOptional(text()) }),
    z.strictObject({ kind: z.literal('retry'), reason: text() }),
    z.strictObject({ kind: z.literal('stop'), exit: z.enum(STOP_EXITS), reason: text() }),
  ]);
  const ruleSchema: z.ZodMiniType<StopRule> = z.strictObject({
    id: text(),
    description: z.exactOptional(z.string()),
    when: conditionSchema,
    then: outcomeSchema,
  });
  return z
    .strictObject({
      $schema: z.exactOptional(z.string()),
      version: z.literal(STOP_POLICY_VERSION),
      name: z.exactOptional(z.string()),
      rules: z.array(ruleSchema).check(z.minLength(1)),
    })
    .check(
      z.superRefine((document, context) => {
        const seen = new Map<string, number>();
        document.rules.forEach((rule, index) => {
          const earlier = seen.get(rule.id);
          if (earlier === undefined) seen.set(rule.id, index);
          else context.addIssue({ code: 'custom', message: `duplicate rule id "${rule.id}" (also rules[${earlier}].id)`, path: ['rules', index, 'id'], input: rule.id });
        });
      }),
    );
});
