import { describe, expect, it } from 'vitest';
import { decideCompletionAction } from '../../src/core/decide-completion-action.js';
import { setOwnProperty } from '../../src/core/own-property.js';

describe('setOwnProperty', () => {
  it('keeps a key named __proto__ as an own entry instead of changing the prototype', () => {
    const record: Record<string, number> = {};
    setOwnProperty(record, '__proto__', 0.05);
    setOwnProperty(record, 'other', 0.9);
    expect(Object.keys(record)).toEqual(['__proto__', 'other']);
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(record))).toEqual(JSON.parse('{"__proto__":0.05,"other":0.9}'));
    // so the low criterion still decides
    expect(decideCompletionAction(record, { passed: true, failed: [], ran: 2 }, { step: 1, recentFingerprints: [] }).action).toBe(
      'handoff_human',
    );
  });
});
