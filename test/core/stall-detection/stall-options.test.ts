import { describe, expect, it } from 'vitest';
import {
  DEFAULT_STALL_OPTIONS,
  resolveStallOptions,
  STALL_SCORE_FEATURES,
  stallOptionsInputSchema,
  stallScoreModelSchema,
  type StallScoreModel,
} from '../../../src/core/stall-detection/stall-options.js';

describe('resolveStallOptions', () => {
  it('lays a pattern over its own defaults', () => {
    const options = resolveStallOptions({ repeatedError: { repeats: 3 }, cycle: false });
    expect(options.repeatedError).toEqual({ repeats: 3, infrastructureRepeats: 8 });
    expect(options.cycle).toBe(false);
    expect(options.repeatedResult).toEqual(DEFAULT_STALL_OPTIONS.repeatedResult);
    expect(resolveStallOptions()).toBe(DEFAULT_STALL_OPTIONS);
  });

  it('fails fast on a bad threshold', () => {
    expect(() => resolveStallOptions({ monologue: { repeats: 0 } })).toThrow(/monologue.repeats must be an integer >= 2/);
    expect(() => resolveStallOptions({ revisit: { repeats: 5, window: 100 } })).toThrow(/revisit.window/);
    expect(() => resolveStallOptions({ inferErrors: 'yes' as never })).toThrow(TypeError);
  });
});

describe('DEFAULT_STALL_OPTIONS', () => {
  it('are the thresholds the public detectors agree on, with no-progress and the call-alone rule off', () => {
    expect(DEFAULT_STALL_OPTIONS).toMatchObject({
      // OpenHands: 4 identical pairs; Goose, Crush and OpenHands: the same failure 3 times; OpenClaw-style polling longer.
      repeatedResult: { repeats: 4, failingRepeats: 3, pollingRepeats: 12 },
      // OpenHands SDK: stuck at the 4th identical failing call.
      repeatedFailingCall: { repeats: 4 },
      repeatedError: { repeats: 4, infrastructureRepeats: 8 },
      cycle: { maxPeriod: 4, repeats: 3 },
      revisit: { repeats: 6, window: 32 },
      // Crush: the same (call, result) more than 5 times among the last ones.
      repeatedPair: { repeats: 6, window: 30 },
      noProgress: false,
      repeatedCall: false,
      ignoredArguments: ['task_progress'],
    });
    expect(Object.keys(DEFAULT_STALL_OPTIONS.tools).sort()).toEqual(['BashOutput', 'TaskOutput', 'browser_action', 'command_status', 'process']);
  });

  it('turn a pattern off by default on with its own values, and keep the known tools under the ones given', () => {
    expect(resolveStallOptions({ noProgress: {} }).noProgress).toEqual({ repeats: 4, window: 16, nothingNew: true });
    expect(resolveStallOptions({ noProgress: { nothingNew: false } }).noProgress).toEqual({ repeats: 4, window: 16, nothingNew: false });
    expect(resolveStallOptions({ repeatedCall: { repeats: 6 } }).repeatedCall).toEqual({ repeats: 6 });
    expect(resolveStallOptions({ tools: { make_status: { polling: true } } }).tools).toMatchObject({ make_status: { polling: true }, BashOutput: { polling: true } });
    expect(() => resolveStallOptions({ noProgress: { nothingNew: 1 as never } })).toThrow(/noProgress\.nothingNew must be a boolean/);
    expect(() => resolveStallOptions({ repeatedPair: { window: 65 } })).toThrow(/repeatedPair\.window must be at most 64/);
    expect(() => resolveStallOptions({ ignoredArguments: [1] as never })).toThrow(/ignoredArguments/);
  });
});

describe('stallOptionsInputSchema', () => {
  it('takes every option of the detector, a boolean where one is, and the argument matches of tools', () => {
    const options = {
      repeatedResult: { failingRepeats: 4, pollingRepeats: 20 },
      repeatedPair: { repeats: 5, window: 20 },
      noProgress: { repeats: 3, nothingNew: false },
      ignoredArguments: ['task_progress', 'note'],
      tools: { browser: { repeatable: { argument: 'action', values: ['scroll'] } }, jobs: { polling: true, arguments: ['id'] } },
    };
    expect(stallOptionsInputSchema.safeParse(options).success).toBe(true);
  });

  it('refuses what the detector refuses, at the key of the option', () => {
    const issue = (value: unknown) => {
      const parsed = stallOptionsInputSchema.safeParse(value);
      return parsed.success ? undefined : { path: parsed.error.issues[0]?.path.join('.'), message: parsed.error.issues[0]?.message };
    };
    expect(issue({ noProgress: { nothingNew: 'yes' } })?.path).toMatch(/^noProgress/);
    expect(issue({ repeatedPair: { window: 100 } })).toEqual({ path: 'repeatedPair.window', message: 'must be at most 64, got 100' });
    expect(issue({ tools: { t: { repeatable: { argument: 'a' } } } })?.path).toBe('tools.t.repeatable');
    expect(issue({ repeatedResult: { failingRepeats: 1 } })).toEqual({ path: 'repeatedResult.failingRepeats', message: 'must be an integer >= 2, got 1' });
  });
});

describe('stallScoreModelSchema', () => {
  const model: StallScoreModel = {
    version: 1,
    window: 10,
    bias: -4,
    weights: Object.fromEntries(STALL_SCORE_FEATURES.map((name, i) => [name, i / 2])) as StallScoreModel['weights'],
    threshold: 0.7,
  };
  const issue = (value: unknown) => {
    const parsed = stallScoreModelSchema.safeParse(value);
    return parsed.success ? undefined : { path: parsed.error.issues[0]?.path.join('.'), message: parsed.error.issues[0]?.message };
  };

  it('takes a model with a weight for every feature and a threshold in [0, 1], or null for one that never stops', () => {
    expect(stallScoreModelSchema.safeParse(model).success).toBe(true);
    expect(stallScoreModelSchema.safeParse({ ...model, threshold: null }).success).toBe(true);
    expect(stallScoreModelSchema.safeParse(JSON.parse(JSON.stringify({ ...model, threshold: null }))).success).toBe(true);
  });

  it('refuses a negative weight (the score must be monotone), a missing or unknown feature, a window out of range and a threshold out of [0, 1]', () => {
    expect(issue({ ...model, weights: { ...model.weights, errorRate: -0.1 } })).toEqual({ path: 'weights.errorRate', message: 'must be at least 0: the score is monotone' });
    const { ruleFinding: _, ...missing } = model.weights;
    expect(issue({ ...model, weights: missing })?.path).toBe('weights.ruleFinding');
    expect(issue({ ...model, weights: { ...model.weights, stepIndex: 1 } })).toBeDefined();
    expect(issue({ ...model, window: 1 })?.path).toBe('window');
    expect(issue({ ...model, window: 65 })?.path).toBe('window');
    expect(issue({ ...model, window: 2.5 })?.path).toBe('window');
    expect(issue({ ...model, threshold: 1.5 })?.path).toBe('threshold');
    // Infinity is no threshold: JSON cannot carry it, and "never stops" is null.
    expect(issue({ ...model, threshold: Number.POSITIVE_INFINITY })?.path).toBe('threshold');
    expect(issue({ ...model, version: 2 })?.path).toBe('version');
  });
});
