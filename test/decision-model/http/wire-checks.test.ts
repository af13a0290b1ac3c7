import { describe, expect, it } from 'vitest';
import { doneCriteria } from '../../../src/decision-model/boolean-question.js';
import { assertSendableRequest, isTokenCount } from '../../../src/decision-model/http/wire-checks.js';

describe('assertSendableRequest', () => {
  it('accepts a request with yes/no questions', () => {
    expect(() => assertSendableRequest({ state: 's', questions: doneCriteria })).not.toThrow();
  });

  it.each([
    ['no request', null],
    ['no questions', { state: 's' }],
    ['an empty question set', { state: 's', questions: {} }],
    ['another question type', { state: 's', questions: { a: { type: 'choice', choices: ['x'] } } }],
    ['a question that is not an object', { state: 's', questions: { a: 'Done?' } }],
  ])('refuses %s with invalid_request', (_label, request) => {
    expect(() => assertSendableRequest(request)).toThrow(expect.objectContaining({ kind: 'invalid_request' }));
  });
});

describe('isTokenCount', () => {
  it('is true only for finite numbers at or above 0', () => {
    expect([0, 12, 3.5].map(isTokenCount)).toEqual([true, true, true]);
    expect([-1, Number.NaN, Number.POSITIVE_INFINITY, '12', null].map(isTokenCount)).toEqual([false, false, false, false, false]);
  });
});
