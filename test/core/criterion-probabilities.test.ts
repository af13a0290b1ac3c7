import { describe, expect, it } from 'vitest';
import { lowestCriterion, minCriterionProbability } from '../../src/core/criterion-probabilities.js';

describe('minCriterionProbability', () => {
  it('returns the lowest probability of any number of criteria', () => {
    expect(minCriterionProbability({ acceptanceCovered: 0.9, noOpenQuestions: 0.75 })).toBe(0.75);
    expect(minCriterionProbability({ a: 0.2 })).toBe(0.2);
    expect(minCriterionProbability({ a: 1, b: 0.99, c: 0.31, d: 0.5, e: 0.32 })).toBe(0.31);
  });

  it('treats no criteria as a vacuous "says done" (1)', () => {
    expect(minCriterionProbability({})).toBe(1);
    expect(lowestCriterion({})).toEqual({ probability: 1 });
  });

  it('names the lowest criterion', () => {
    expect(lowestCriterion({ acceptanceCovered: 0.9, noOpenQuestions: 0.75 })).toEqual({
      criterion: 'noOpenQuestions',
      probability: 0.75,
    });
  });

  it.each([Number.NaN, -0.01, 1.01, Number.POSITIVE_INFINITY, '0.9', null, undefined])(
    'throws a RangeError naming the criterion for %s',
    (value) => {
      expect(() => minCriterionProbability({ good: 0.8, shaky: value as number })).toThrow(RangeError);
      expect(() => minCriterionProbability({ good: 0.8, shaky: value as number })).toThrow(/criterion "shaky"/);
    },
  );

  it('rejects a value that is not a record', () => {
    expect(() => minCriterionProbability(null as unknown as Record<string, number>)).toThrow(RangeError);
    expect(() => minCriterionProbability([0.9] as unknown as Record<string, number>)).toThrow(RangeError);
  });
});
