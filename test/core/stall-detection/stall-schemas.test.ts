import { describe, expect, it } from 'vitest';
import { STALL_SCORE_FEATURES, type StallScoreModel } from '../../../src/core/stall-detection/stall-options.js';
import { stallOptionsInputSchema, stallScoreModelSchema } from '../../../src/core/stall-detection/stall-schemas.js';

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
