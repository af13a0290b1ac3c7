import { describeValue } from '../describe-value.js';

/**
 * Calls of a tool whose `argument` (a top-level input key) has one of `values`,
 * such as `{ argument: 'action', values: ['scroll_down', 'scroll_up'] }`.
 */
export interface ArgumentMatch {
  readonly argument: string;
  readonly values: readonly string[];
}

/** How the detector identifies the calls of one tool. */
export interface ToolIdentity {
  /** Only these top-level input keys identify a call (others, such as a timeout, are ignored). */
  readonly arguments?: readonly string[];
  /**
   * The tool polls (all its calls, or those matching): calling it again is expected, so the call alone never
   * counts and the same result counts only at `repeatedResult.pollingRepeats`.
   */
  readonly polling?: boolean | ArgumentMatch;
  /**
   * Repeating these calls is legitimate whatever they return (scrolling a page, paging a listing): they are
   * invisible to every pattern, neither counting nor breaking the streaks of other calls.
   */
  readonly repeatable?: boolean | ArgumentMatch;
}

/** Options of each stall pattern; `false` turns a pattern off. */
export interface StallOptions {
  /**
   * The same call with the same (normalised) result, `repeats` times in a row; a call whose result is not
   * known (no output, no status) counts as giving the same result. The same failure (same call, same error
   * text) counts at `failingRepeats`, as Goose, Crush and OpenHands stop at the third; polling calls count at
   * `pollingRepeats`, calls failing on an infrastructure error at `repeatedError.infrastructureRepeats`.
   */
  readonly repeatedResult: { readonly repeats: number; readonly failingRepeats: number; readonly pollingRepeats: number } | false;
  /** The same call failing `repeats` times in a row, whatever the error texts say (infrastructure errors and polling calls apart). */
  readonly repeatedFailingCall: { readonly repeats: number } | false;
  /**
   * Failed calls of one tool in a row ending in the same error, their inputs may differ; infrastructure errors
   * (timeouts, rate limits, refused connections) are counted apart, at `infrastructureRepeats`.
   */
  readonly repeatedError: { readonly repeats: number; readonly infrastructureRepeats: number } | false;
  /** A cycle of 2 to `maxPeriod` distinct (call, result) steps repeated `repeats` times in a row; steps with unknown results never form one. */
  readonly cycle: { readonly maxPeriod: number; readonly repeats: number } | false;
  /**
   * `repeats` steps in a row that each repeated a (call, result) step seen
   * among the last `window` distinct ones: a wander round known ground, with
   * no period (a longer or irregular cycle).
   */
  readonly revisit: { readonly repeats: number; readonly window: number } | false;
  /**
   * The same (call, result) pair `repeats` times among the last `window` steps, in a row or not (an exact
   * count, as Crush's loop check does); results must be known, polling calls and infrastructure errors apart.
   */
  readonly repeatedPair: { readonly repeats: number; readonly window: number } | false;
  /**
   * A failing check (a call made again after other steps) whose result did not
   * change over `repeats` runs, or the same failing-test set `repeats` times.
   * `window` is how many distinct checks are remembered. With `nothingNew`, a
   * run counts only when no step since the check's last run gave a (call,
   * result) pair not seen before in the turn: edits in between are progress.
   */
  readonly noProgress: { readonly repeats: number; readonly window: number; readonly nothingNew: boolean } | false;
  /** `repeats` messages in a row with no tool call and no reply. */
  readonly monologue: { readonly repeats: number } | false;
  /** The same call `repeats` times in a row, whatever it returned (never for polling tools). */
  readonly repeatedCall: { readonly repeats: number } | false;
  /** Read a failure from the output when a step says neither `error` nor `exitCode`. */
  readonly inferErrors: boolean;
  /** Top-level input keys that never identify a call, whatever the tool (progress notes such as Cline's `task_progress`). */
  readonly ignoredArguments: readonly string[];
  /** Per tool name: what identifies its calls. Given tools are laid over the default ones. */
  readonly tools: Readonly<Record<string, ToolIdentity>>;
}

/** Options given by a caller: for any pattern, `false` or some of its options (the rest from the defaults). */
export type StallOptionsInput = {
  readonly [K in keyof StallOptions]?: K extends 'inferErrors' | 'tools' | 'ignoredArguments' ? StallOptions[K] : Partial<Exclude<StallOptions[K], false>> | false;
};

/**
 * Tools whose repeats are legitimate, by name, the same for every agent: reading a background shell's output
 * and polling a process or a command's status (OpenClaw's known poll tools) poll; scrolling a browser page
 * (Roo Code's exemption) is repeatable.
 */
export const DEFAULT_TOOL_IDENTITIES: Readonly<Record<string, ToolIdentity>> = Object.freeze({
  BashOutput: Object.freeze({ polling: true }),
  TaskOutput: Object.freeze({ polling: true }),
  command_status: Object.freeze({ polling: true }),
  process: Object.freeze({ polling: Object.freeze({ argument: 'action', values: Object.freeze(['poll', 'log']) }) }),
  browser_action: Object.freeze({ repeatable: Object.freeze({ argument: 'action', values: Object.freeze(['scroll_down', 'scroll_up']) }) }),
});

/**
 * Each pattern's values: the default where the pattern is on by default, and what a pattern off by default
 * (`noProgress`, `repeatedCall`) takes when a caller turns it on with only some of its options.
 */
const PATTERN_VALUES: { readonly [K in PatternKey]: Exclude<StallOptions[K], false> } = Object.freeze({
  repeatedResult: Object.freeze({ repeats: 4, failingRepeats: 3, pollingRepeats: 12 }),
  repeatedFailingCall: Object.freeze({ repeats: 4 }),
  repeatedError: Object.freeze({ repeats: 4, infrastructureRepeats: 8 }),
  cycle: Object.freeze({ maxPeriod: 4, repeats: 3 }),
  revisit: Object.freeze({ repeats: 6, window: 32 }),
  repeatedPair: Object.freeze({ repeats: 6, window: 30 }),
  noProgress: Object.freeze({ repeats: 4, window: 16, nothingNew: true }),
  monologue: Object.freeze({ repeats: 3 }),
  repeatedCall: Object.freeze({ repeats: 8 }),
});

/**
 * The default options: conservative and the same for every agent. Each threshold counts repeats of
 * something the work should have changed, with exact evidence (the same call and the same result, the
 * same error); `noProgress` and `repeatedCall` are off. See docs/stall-detection.md for the public
 * detectors each follows and what they catch on real runs.
 */
export const DEFAULT_STALL_OPTIONS: StallOptions = Object.freeze({
  ...PATTERN_VALUES,
  noProgress: false,
  repeatedCall: false,
  inferErrors: true,
  ignoredArguments: Object.freeze(['task_progress']),
  tools: DEFAULT_TOOL_IDENTITIES,
});

type PatternKey = (typeof STALL_OPTION_PATTERN_KEYS)[number];

const resolved = new WeakMap<object, StallOptions>();
/** The option keys of the patterns, one per pattern that has options. */
export const STALL_OPTION_PATTERN_KEYS = [
  'repeatedResult',
  'repeatedFailingCall',
  'repeatedError',
  'cycle',
  'revisit',
  'repeatedPair',
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
    if (typeof given === 'object' && given !== null) merged[key] = { ...(fallback === false ? PATTERN_VALUES[key] : fallback), ...given };
  }
  // Tool identities given are laid over the default ones, so naming one tool keeps the known polling and repeatable tools.
  if (options.tools !== undefined && typeof options.tools === 'object' && options.tools !== null) merged.tools = { ...DEFAULT_TOOL_IDENTITIES, ...options.tools };
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
  check('repeatedResult', { repeats: 2, failingRepeats: 2, pollingRepeats: 2 });
  check('repeatedFailingCall', { repeats: 2 });
  check('repeatedError', { repeats: 2, infrastructureRepeats: 2 });
  check('cycle', { maxPeriod: 2, repeats: 2 });
  check('revisit', { repeats: 2, window: 1 });
  check('repeatedPair', { repeats: 2, window: 2 });
  check('noProgress', { repeats: 2, window: 1 });
  if (options.noProgress !== false && typeof options.noProgress.nothingNew !== 'boolean') {
    throw new TypeError(`stall option noProgress.nothingNew must be a boolean, got ${describeValue(options.noProgress.nothingNew)}`);
  }
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
  if (options.repeatedPair !== false && options.repeatedPair.window > 64) {
    throw new TypeError(`stall option repeatedPair.window must be at most 64, got ${options.repeatedPair.window}`);
  }
  if (!Array.isArray(options.ignoredArguments) || !options.ignoredArguments.every((key) => typeof key === 'string')) {
    throw new TypeError(`stall option ignoredArguments must be an array of input keys, got ${describeValue(options.ignoredArguments)}`);
  }
  if (typeof options.tools !== 'object' || options.tools === null) {
    throw new TypeError(`stall option tools must be an object, got ${describeValue(options.tools)}`);
  }
}

/**
 * The window features of the learned stall score, each in [0, 1] and each
 * growing with the evidence of a stall. None of them counts steps of the whole
 * run (no step index, no run length, no whole-run totals), so a score cannot
 * stand in for how long a run has gone on or for which agent ran it.
 */
export const STALL_SCORE_FEATURES = [
  /** The share of the window's steps that failed. */
  'errorRate',
  /** One minus the share of distinct results among the window's steps. */
  'repeatedOutputs',
  /** One minus the share of distinct calls among the window's steps. */
  'repeatedActions',
  /** The share of the window's outputs nearly equal (SimHash within 3 bits) to an earlier one in the window. */
  'nearDuplicateOutputs',
  /** Steps since a call named a file not named before in the turn, over the window size (capped at 1). */
  'sinceNewFile',
  /** The share of the window's steps whose (call, result) pair was seen before in the turn. */
  'revisitedSteps',
  /** Steps in a row with no (call, result) pair new to the turn, over the window size (capped at 1). */
  'sinceNewStep',
  /** 1 while a pattern of the rule detector (default options) holds, else 0. */
  'ruleFinding',
] as const;

/** The name of one feature of the stall score. */
export type StallScoreFeature = (typeof STALL_SCORE_FEATURES)[number];

/**
 * A learned stall score: a logistic model over the window features with
 * non-negative weights, so the score never falls when the evidence of a stall
 * grows (monotone), and the threshold at which a run is stopped.
 */
export interface StallScoreModel {
  readonly version: 1;
  /** How many of the last steps the features look at. */
  readonly window: number;
  readonly bias: number;
  readonly weights: Readonly<Record<StallScoreFeature, number>>;
  /** Stop when the score reaches it; `null` never stops (a threshold that could not be certified). */
  readonly threshold: number | null;
}

/** The largest window a stall score model may look at. */
export const STALL_SCORE_MAX_WINDOW = 64;
