import * as z from 'zod/mini';
import { describeValue } from '../describe-value.js';

/** How the detector identifies the calls of one tool. */
export interface ToolIdentity {
  /** Only these top-level input keys identify a call (others, such as a timeout, are ignored). */
  readonly arguments?: readonly string[];
  /** The tool polls: calling it again is expected, so only a repeated result counts, never the call alone. */
  readonly polling?: boolean;
}

/** Options of each stall pattern; `false` turns a pattern off. */
export interface StallOptions {
  /** The same call with the same (normalised) result, `repeats` times in a row. */
  readonly repeatedResult: { readonly repeats: number } | false;
  /** The same call failing `repeats` times in a row, whatever the error texts say. */
  readonly repeatedFailingCall: { readonly repeats: number } | false;
  /** Failed steps in a row ending in the same error, calls may differ; infrastructure errors are counted apart. */
  readonly repeatedError: { readonly repeats: number; readonly infrastructureRepeats: number } | false;
  /** A cycle of 2 to `maxPeriod` distinct (call, result) steps repeated `repeats` times in a row. */
  readonly cycle: { readonly maxPeriod: number; readonly repeats: number } | false;
  /**
   * `repeats` steps in a row that each repeated a (call, result) step seen
   * among the last `window` distinct ones: a wander round known ground, with
   * no period (a longer or irregular cycle).
   */
  readonly revisit: { readonly repeats: number; readonly window: number } | false;
  /**
   * A failing check (a call made again after other steps) whose result did not
   * change over `repeats` runs, or the same failing-test set `repeats` times.
   * `window` is how many distinct checks are remembered.
   */
  readonly noProgress: { readonly repeats: number; readonly window: number } | false;
  /** `repeats` messages in a row with no tool call and no reply. */
  readonly monologue: { readonly repeats: number } | false;
  /** The same call `repeats` times in a row, whatever it returned (never for polling tools). */
  readonly repeatedCall: { readonly repeats: number } | false;
  /** Read a failure from the output when a step says neither `error` nor `exitCode`. */
  readonly inferErrors: boolean;
  /** Per tool name: what identifies its calls. */
  readonly tools: Readonly<Record<string, ToolIdentity>>;
}

/** Options given by a caller: for any pattern, `false` or some of its options (the rest from the defaults). */
export type StallOptionsInput = {
  readonly [K in keyof StallOptions]?: K extends 'inferErrors' | 'tools' ? StallOptions[K] : Partial<Exclude<StallOptions[K], false>> | false;
};

/**
 * The default options. Each threshold counts repeats of something the work
 * should have changed; see docs/stall-detection.md for how they were
 * chosen and what they catch on real runs.
 */
export const DEFAULT_STALL_OPTIONS: StallOptions = Object.freeze({
  repeatedResult: Object.freeze({ repeats: 4 }),
  repeatedFailingCall: Object.freeze({ repeats: 3 }),
  repeatedError: Object.freeze({ repeats: 4, infrastructureRepeats: 8 }),
  cycle: Object.freeze({ maxPeriod: 4, repeats: 3 }),
  revisit: Object.freeze({ repeats: 5, window: 32 }),
  noProgress: Object.freeze({ repeats: 4, window: 16 }),
  monologue: Object.freeze({ repeats: 3 }),
  repeatedCall: Object.freeze({ repeats: 8 }),
  inferErrors: true,
  tools: Object.freeze({}),
});

const resolved = new WeakMap<object, StallOptions>();
/** The option keys of the patterns, one per pattern that has options. */
export const STALL_OPTION_PATTERN_KEYS = [
  'repeatedResult',
  'repeatedFailingCall',
  'repeatedError',
  'cycle',
  'revisit',
  'noProgress',
  'monologue',
  'repeatedCall',
] as const satisfies readonly (keyof StallOptions)[];

/** The defaults with `options` laid over them (pattern by pattern); throws a `TypeError` on a bad threshold. */
export function resolveStallOptions(options?: StallOptionsInput): StallOptions {
  if (options === undefined || options === DEFAULT_STALL_OPTIONS) return DEFAULT_STALL_OPTIONS;
  const cached = resolved.get(options);
  if (cached !== undefined) return cached;
  // A pattern given as an object is laid over that pattern's defaults, so `{ repeatedError: { repeats: 3 } }` keeps the rest.
  const merged = { ...DEFAULT_STALL_OPTIONS, ...options } as Record<string, unknown>;
  for (const key of STALL_OPTION_PATTERN_KEYS) {
    const given = options[key];
    const fallback = DEFAULT_STALL_OPTIONS[key];
    if (typeof given === 'object' && given !== null && fallback !== false) merged[key] = { ...fallback, ...given };
  }
  const result = merged as unknown as StallOptions;
  assertStallOptions(result);
  resolved.set(options, result);
  return result;
}

function assertStallOptions(options: StallOptions): void {
  const whole = (pattern: string, key: string, value: unknown, min: number): void => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
      throw new TypeError(`stall option ${pattern}.${key} must be an integer >= ${min}, got ${describeValue(value)}`);
    }
  };
  const check = (pattern: keyof StallOptions, keys: Readonly<Record<string, number>>): void => {
    const value = options[pattern];
    if (value === false) return;
    if (typeof value !== 'object' || value === null) {
      throw new TypeError(`stall option ${pattern} must be an object or false, got ${describeValue(value)}`);
    }
    for (const [key, min] of Object.entries(keys)) whole(pattern, key, (value as unknown as Record<string, unknown>)[key], min);
  };
  check('repeatedResult', { repeats: 2 });
  check('repeatedFailingCall', { repeats: 2 });
  check('repeatedError', { repeats: 2, infrastructureRepeats: 2 });
  check('cycle', { maxPeriod: 2, repeats: 2 });
  check('revisit', { repeats: 2, window: 1 });
  check('noProgress', { repeats: 2, window: 1 });
  check('monologue', { repeats: 2 });
  check('repeatedCall', { repeats: 2 });
  if (options.cycle !== false && options.cycle.maxPeriod > 16) {
    throw new TypeError(`stall option cycle.maxPeriod must be at most 16, got ${options.cycle.maxPeriod}`);
  }
  if (options.revisit !== false && options.revisit.window > 64) {
    throw new TypeError(`stall option revisit.window must be at most 64, got ${options.revisit.window}`);
  }
  if (options.noProgress !== false && options.noProgress.window > 64) {
    throw new TypeError(`stall option noProgress.window must be at most 64, got ${options.noProgress.window}`);
  }
  if (typeof options.inferErrors !== 'boolean') {
    throw new TypeError(`stall option inferErrors must be a boolean, got ${describeValue(options.inferErrors)}`);
  }
  if (typeof options.tools !== 'object' || options.tools === null) {
    throw new TypeError(`stall option tools must be an object, got ${describeValue(options.tools)}`);
  }
}

/** The numeric fields of each pattern's options. */
const STALL_OPTION_FIELDS: Readonly<Record<(typeof STALL_OPTION_PATTERN_KEYS)[number], readonly string[]>> = {
  repeatedResult: ['repeats'],
  repeatedFailingCall: ['repeats'],
  repeatedError: ['repeats', 'infrastructureRepeats'],
  cycle: ['maxPeriod', 'repeats'],
  revisit: ['repeats', 'window'],
  noProgress: ['repeats', 'window'],
  monologue: ['repeats'],
  repeatedCall: ['repeats'],
};

const toolIdentitySchema = z.strictObject({ arguments: z.exactOptional(z.array(z.string())), polling: z.exactOptional(z.boolean()) });

/**
 * The schema of {@link StallOptionsInput}, made from the defaults: each pattern takes `false` or some of its
 * default's fields; a value the detector refuses (a threshold below its minimum) is an issue at the pattern's key.
 */
export const stallOptionsInputSchema: z.ZodMiniType<StallOptionsInput> = z
  .strictObject({
    ...Object.fromEntries(
      STALL_OPTION_PATTERN_KEYS.map((key) => {
        const fields = STALL_OPTION_FIELDS[key].map((field) => [field, z.exactOptional(z.int())] as const);
        return [key, z.exactOptional(z.union([z.literal(false), z.strictObject(Object.fromEntries(fields))]))];
      }),
    ),
    inferErrors: z.exactOptional(z.boolean()),
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
  ) as unknown as z.ZodMiniType<StallOptionsInput>;
