import { describe, expect, it } from 'vitest';
import { callKey } from '../../../src/core/stall-detection/call-key.js';

describe('callKey', () => {
  it('ignores key order and keeps only declared arguments', () => {
    expect(callKey('t', { a: 1, b: { d: 2, c: 3 } }, undefined)).toBe(callKey('t', { b: { c: 3, d: 2 }, a: 1 }, undefined));
    expect(callKey('t', { id: 1, timeout: 5 }, { arguments: ['id'] })).toBe(callKey('t', { id: 1, timeout: 9 }, { arguments: ['id'] }));
    expect(callKey('t', { id: 1 }, undefined)).not.toBe(callKey('u', { id: 1 }, undefined));
  });

  it('survives deep inputs', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = { x: deep };
    expect(callKey('t', deep, undefined)).toContain('<deep>');
  });
});
