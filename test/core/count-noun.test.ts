import { describe, expect, it } from 'vitest';
import { countNoun } from '../../src/core/count-noun.js';

describe('countNoun', () => {
  it('puts the noun in the singular for one and in the plural otherwise', () => {
    expect(countNoun(1, 'step')).toBe('1 step');
    expect(countNoun(0, 'step')).toBe('0 steps');
    expect(countNoun(2, 'case')).toBe('2 cases');
    expect(countNoun(1, 'false done')).toBe('1 false done');
    expect(countNoun(3, 'identical step')).toBe('3 identical steps');
  });

  it('takes an irregular plural', () => {
    expect(countNoun(2, 'child', 'children')).toBe('2 children');
    expect(countNoun(1, 'child', 'children')).toBe('1 child');
  });
});
