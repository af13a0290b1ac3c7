import { describe, expect, it } from 'vitest';
import { booleanQuestion, doneCriteria } from '../../src/decision-model/boolean-question.js';

describe('booleanQuestion', () => {
  it('builds a plain yes/no question, with criteria when given', () => {
    expect(booleanQuestion('Is it done?')).toEqual({ type: 'boolean', instructions: 'Is it done?' });
    const question = booleanQuestion('Is it done?', { true: 'yes it is', false: { reason: 'not yet' } });
    expect(question).toEqual({ type: 'boolean', instructions: 'Is it done?', criteria: { true: 'yes it is', false: { reason: 'not yet' } } });
    expect(JSON.parse(JSON.stringify(question))).toEqual(question);
  });

  it('refuses empty instructions', () => {
    expect(() => booleanQuestion('  ')).toThrow(TypeError);
  });

  it('has the two default questions with true and false descriptions', () => {
    expect(Object.keys(doneCriteria)).toEqual(['acceptanceCovered', 'noOpenQuestions']);
    for (const question of Object.values(doneCriteria)) {
      expect(question.type).toBe('boolean');
      expect(typeof question.criteria?.true).toBe('string');
      expect(typeof question.criteria?.false).toBe('string');
      expect(question.instructions).not.toMatch(/tests? pass/i);
    }
    expect(Object.isFrozen(doneCriteria)).toBe(true);
  });
});
