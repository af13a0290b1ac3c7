import { describe, expect, it } from 'vitest';
import { booleanQuestion, doneCriteria } from '../../../src/decision-model/boolean-question.js';
import { readSystemOneAnswers, readSystemOneModels, toSystemOneQuestions } from '../../../src/decision-model/system-one/system-one-wire.js';

describe('toSystemOneQuestions', () => {
  it('sends boolean questions as noul with their instructions and criteria', () => {
    expect(toSystemOneQuestions({ a: booleanQuestion('Is it?', { true: 'yes', false: null }), b: booleanQuestion('And b?') })).toEqual({
      a: { type: 'noul', instructions: 'Is it?', criteria: { true: 'yes', false: null } },
      b: { type: 'noul', instructions: 'And b?' },
    });
  });

  it('refuses other question types and an empty set before anything is sent', () => {
    expect(() => toSystemOneQuestions({ a: { type: 'score', instructions: 'x' } } as never)).toThrow(/only yes\/no/);
    expect(() => toSystemOneQuestions({})).toThrow(/at least one/);
  });
});

describe('readSystemOneAnswers', () => {
  const body = {
    model: 'judge-small-2026-09-01',
    answers: { acceptanceCovered: { type: 'noul', noul: 0.81 }, noOpenQuestions: { type: 'noul', noul: 0.07 } },
    usage: { input_tokens: 900, output_tokens: 3 },
  };

  it('reads P(yes) per question, the model as the server names it, and the usage', () => {
    expect(readSystemOneAnswers(body, doneCriteria, 'judge-small')).toEqual({
      answers: { acceptanceCovered: { probability: 0.81 }, noOpenQuestions: { probability: 0.07 } },
      model: 'judge-small-2026-09-01',
      usage: { inputTokens: 900, outputTokens: 3 },
    });
  });

  it('ignores unknown fields and unasked answers, and falls back to the alias sent', () => {
    const result = readSystemOneAnswers(
      { answers: { ...body.answers, other: { type: 'noul', noul: 2 } }, trace: { id: 1 } },
      doneCriteria,
      'judge-small',
    );
    expect(Object.keys(result.answers)).toEqual(['acceptanceCovered', 'noOpenQuestions']);
    expect(result.model).toBe('judge-small');
    expect(result.usage).toBeUndefined();
  });

  it.each([
    ['not an object', 'hello'],
    ['no answers', { model: 'm' }],
    ['a missing answer', { answers: { acceptanceCovered: { type: 'noul', noul: 0.5 } } }],
    ['an answer of another type', { answers: { ...body.answers, noOpenQuestions: { type: 'score', score: 3 } } }],
    ['a probability of 1.5', { answers: { ...body.answers, noOpenQuestions: { type: 'noul', noul: 1.5 } } }],
    ['a probability as a string', { answers: { ...body.answers, noOpenQuestions: { type: 'noul', noul: '0.5' } } }],
    ['an SDK-style probability field instead of noul', { answers: { ...body.answers, noOpenQuestions: { type: 'boolean', probability: 0.5 } } }],
  ])('rejects %s with invalid_response', (_label, value) => {
    expect(() => readSystemOneAnswers(value, doneCriteria, 'm')).toThrow(expect.objectContaining({ kind: 'invalid_response' }));
  });
});

describe('readSystemOneModels', () => {
  it('reads the model list', () => {
    expect(
      readSystemOneModels({ models: [{ name: 'judge-small', description: 'fast', release_date: '2026-09-01' }, { name: 'judge-large', extra: 1 }] }),
    ).toEqual([{ name: 'judge-small', description: 'fast', releaseDate: '2026-09-01' }, { name: 'judge-large' }]);
  });

  it('rejects a malformed list', () => {
    expect(() => readSystemOneModels({ data: [] })).toThrow(expect.objectContaining({ kind: 'invalid_response' }));
    expect(() => readSystemOneModels({ models: [{ description: 'no name' }] })).toThrow(/name/);
  });
});
