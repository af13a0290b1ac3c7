import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendFingerprint, isStalled } from '../../src/core/stall.js';

describe('isStalled', () => {
  it('needs at least window fingerprints', () => {
    expect(isStalled([], 3)).toBe(false);
    expect(isStalled(['a', 'a'], 3)).toBe(false);
    expect(isStalled(['a', 'a', 'a'], 3)).toBe(true);
  });

  it('looks only at the last window fingerprints', () => {
    expect(isStalled(['b', 'a', 'a', 'a'])).toBe(true);
    expect(isStalled(['a', 'a', 'a', 'b'])).toBe(false);
    expect(isStalled(['a', 'b', 'a'])).toBe(false);
  });

  it('rejects a window that is not a positive integer', () => {
    expect(() => isStalled(['a'], 0)).toThrow(TypeError);
    expect(() => isStalled(['a'], 1.5)).toThrow(TypeError);
  });
});

describe('appendFingerprint', () => {
  it('keeps only the last window fingerprints and does not touch the input', () => {
    const recent = ['a', 'b', 'c'];
    expect(appendFingerprint(recent, 'd', 3)).toEqual(['b', 'c', 'd']);
    expect(recent).toEqual(['a', 'b', 'c']);
    expect(appendFingerprint([], 'a', 3)).toEqual(['a']);
    expect(appendFingerprint(['a', 'b'], 'c', 1)).toEqual(['c']);
  });

  it('holds O(window) fingerprints however long the loop runs, and finds the same stalls as the full history', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('x', 'y'), { maxLength: 200 }), fc.integer({ min: 1, max: 6 }), (steps, window) => {
        let recent: string[] = [];
        const all: string[] = [];
        for (const fp of steps) {
          recent = appendFingerprint(recent, fp, window);
          all.push(fp);
          expect(recent.length).toBeLessThanOrEqual(window);
          expect(isStalled(recent, window)).toBe(isStalled(all, window));
        }
      }),
      { numRuns: 500 },
    );
  });
});
