import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nearestName } from '../../src/core/nearest-name.js';

const KEYS = ['inputTokens', 'outputTokens', 'cost'];

describe('nearestName', () => {
  it.each([
    ['costUsd', 'cost'],
    ['cost_usd', 'cost'],
    ['Cost', 'cost'],
    ['input_tokens', 'inputTokens'],
    ['outputTokenz', 'outputTokens'],
    ['inputToken', 'inputTokens'],
    ['promptTokens', 'inputTokens'],
    ['completion_tokens', 'outputTokens'],
    ['cst', 'cost'],
  ])('suggests %s -> %s', (name, expected) => {
    expect(nearestName(name, KEYS)).toBe(expected);
  });

  it.each(['totalTokens', 'latencyMs', 'x', '', '__'])('suggests nothing for %j', (name) => {
    expect(nearestName(name, KEYS)).toBeUndefined();
  });

  it('only ever suggests a known name, and a known name suggests itself', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.array(fc.string({ minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 5 }), (name, known) => {
        const near = nearestName(name, known);
        if (near !== undefined) expect(known).toContain(near);
      }),
    );
    for (const key of KEYS) expect(nearestName(key, KEYS)).toBe(key);
  });
});
