import { describe, expect, it } from 'vitest';
import { doneCriteria } from '../../src/decision-model/boolean-question.js';
import { isDecisionModelError } from '../../src/decision-model/decision-model-error.js';
import {
  assertEvaluationQuestions,
  checkProbability,
  validateAnswers,
} from '../../src/decision-model/validate-answers.js';
import { thrown } from './caught-errors.js';

const answers = (a: unknown, b: unknown = 0.9) => ({ acceptanceCovered: { probability: a }, noOpenQuestions: { probability: b } });

function kindOf(run: () => unknown): string {
  const error = thrown(run);
  return isDecisionModelError(error) ? error.kind : `not an DecisionModelError: ${String(error)}`;
}

describe('validateAnswers', () => {
  it('returns one probability per asked question and drops unasked answers', () => {
    const valid = validateAnswers(
      { answers: { ...answers(0.2), extra: { probability: 7 } }, model: 'm', usage: { inputTokens: 10 } },
      doneCriteria,
    );
    expect(valid).toEqual({ probabilities: { acceptanceCovered: 0.2, noOpenQuestions: 0.9 }, model: 'm', usage: { inputTokens: 10 } });
  });

  it('keeps only token counts that are non-negative finite numbers', () => {
    const read = (usage: unknown) => validateAnswers({ answers: answers(0.2), model: 'm', usage } as never, doneCriteria).usage;
    expect(read({ inputTokens: '12', outputTokens: 3, cached: 1 })).toEqual({ outputTokens: 3 });
    expect(read({ inputTokens: Number.NaN, outputTokens: -1 })).toBeUndefined();
    expect(read('lots')).toBeUndefined();
  });

  it('accepts 0 and 1', () => {
    expect(validateAnswers({ answers: answers(0, 1), model: 'm' }, doneCriteria).probabilities).toEqual({
      acceptanceCovered: 0,
      noOpenQuestions: 1,
    });
  });

  it.each([
    ['1.5', 1.5],
    ['-0.01', -0.01],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a string', '0.9'],
    ['null', null],
    ['undefined', undefined],
    ['a boolean', true],
  ])('rejects a probability of %s with invalid_response', (_label, value) => {
    expect(kindOf(() => validateAnswers({ answers: answers(value), model: 'm' }, doneCriteria))).toBe('invalid_response');
  });

  it.each([
    ['a missing answer', { answers: { acceptanceCovered: { probability: 0.9 } }, model: 'm' }],
    ['an answer that is a bare number', { answers: { acceptanceCovered: 0.9, noOpenQuestions: 0.9 }, model: 'm' }],
    ['no answers', { model: 'm' }],
    ['answers as an array', { answers: [0.9, 0.9], model: 'm' }],
    ['no model', { answers: answers(0.9) }],
    ['a result that is not an object', 'yes'],
    ['null', null],
    ['an inherited answer', { answers: Object.create({ acceptanceCovered: { probability: 1 }, noOpenQuestions: { probability: 1 } }), model: 'm' }],
  ])('rejects %s with invalid_response', (_label, result) => {
    expect(kindOf(() => validateAnswers(result, doneCriteria))).toBe('invalid_response');
  });

  it('names the question in the message', () => {
    expect(() => validateAnswers({ answers: answers(0.5, 2), model: 'm' }, doneCriteria)).toThrow(/noOpenQuestions/);
  });
});

describe('checkProbability', () => {
  it('returns a valid value and rejects others', () => {
    expect(checkProbability('q', 0.25)).toBe(0.25);
    expect(kindOf(() => checkProbability('q', 1.0000001))).toBe('invalid_response');
  });
});

describe('assertEvaluationQuestions', () => {
  it('accepts named yes/no questions', () => {
    expect(() => assertEvaluationQuestions(doneCriteria)).not.toThrow();
  });

  it.each([
    ['no questions', {}],
    ['an array', []],
    ['a question of another type', { a: { type: 'score', instructions: 'x' } }],
    ['a question without instructions', { a: { type: 'boolean' } }],
    ['a question that is a string', { a: 'Is it done?' }],
  ])('refuses %s with a TypeError', (_label, questions) => {
    expect(() => assertEvaluationQuestions(questions as never)).toThrow(TypeError);
  });
});
