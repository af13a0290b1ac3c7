import { describe, expect, it } from 'vitest';
import { normaliseLabel, readYesProbability } from '../../../src/decision-model/openai-compatible/read-yes-probability.js';

const completion = (top: unknown) => ({ choices: [{ logprobs: { content: [{ token: 'Yes', logprob: -0.1, top_logprobs: top }] } }] });
const entry = (token: string, p: number) => ({ token, logprob: Math.log(p) });

describe('readYesProbability', () => {
  it('sums the yes variants and the no variants and normalises', () => {
    const result = readYesProbability(
      completion([entry('Yes', 0.5), entry(' yes', 0.1), entry('YES', 0.05), entry('No', 0.2), entry(' no', 0.05), entry('Maybe', 0.1)]),
      'q',
      0.5,
    );
    expect(result.yesMass).toBeCloseTo(0.65, 12);
    expect(result.noMass).toBeCloseTo(0.25, 12);
    expect(result.probability).toBeCloseTo(0.65 / 0.9, 12);
  });

  it('gives 1 or 0 when only one label appears', () => {
    expect(readYesProbability(completion([entry('yes', 0.9)]), 'q', 0.5).probability).toBe(1);
    expect(readYesProbability(completion([entry(' No', 0.9)]), 'q', 0.5).probability).toBe(0);
  });

  it('refuses a completion whose labels hold less than minLabelMass', () => {
    expect(() => readYesProbability(completion([entry('Yes', 0.2), entry('No', 0.1), entry('The', 0.6)]), 'q', 0.5)).toThrow(
      expect.objectContaining({ kind: 'invalid_response', message: expect.stringContaining('minLabelMass') }),
    );
    expect(() => readYesProbability(completion([entry('The', 0.9)]), 'q', 0.01)).toThrow(expect.objectContaining({ kind: 'invalid_response' }));
    expect(readYesProbability(completion([entry('Yes', 0.2), entry('No', 0.1)]), 'q', 0.3).probability).toBeCloseTo(2 / 3, 12);
  });

  it.each([
    ['no choices', {}],
    ['null logprobs', { choices: [{ logprobs: null }] }],
    ['no content', { choices: [{ logprobs: {} }] }],
    ['empty top_logprobs', completion([])],
    ['a logprob as a string', completion([{ token: 'Yes', logprob: '-0.1' }])],
    ['a positive logprob', completion([{ token: 'Yes', logprob: 0.4 }])],
    ['a token that is not a string', completion([{ token: 5, logprob: -0.1 }])],
  ])('rejects %s with invalid_response', (_label, body) => {
    expect(() => readYesProbability(body, 'q', 0.5)).toThrow(expect.objectContaining({ kind: 'invalid_response' }));
  });
});

describe('normaliseLabel', () => {
  it('drops leading space and tokenizer markers and lowers the case', () => {
    expect(['Yes', ' yes', 'YES', '\u2581Yes', '\u0120yes', '\nyes'].map(normaliseLabel)).toEqual(Array(6).fill('yes'));
    expect(normaliseLabel('Yesterday')).toBe('yesterday');
  });
});
