import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutText } from '../../src/core/cut-text.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('cutText', () => {
  it('keeps text that fits and cuts the rest with the marker last', () => {
    expect(cutText('short', 10)).toBe('short');
    expect(cutText('abcdefgh', 5)).toBe('abcd…');
    expect(cutText('abcdefgh', 5, '...')).toBe('ab...');
  });

  it('never keeps half of a surrogate pair', () => {
    expect(cutText('abc🎉🎉', 5)).toBe('abc…');
    expect(cutText('ab🎉🎉', 5, '...')).toBe('ab...');
    expect(cutText('abcd🎉🎉', 5, '')).toBe('abcd');
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.integer({ min: 3, max: 40 }), fc.constantFrom('…', '...', ''), (text, max, marker) => {
        const cut = cutText(text, max, marker);
        expect(cut.length).toBeLessThanOrEqual(max);
        expect(LONE_SURROGATE.test(cut)).toBe(false);
        if (text.length <= max) expect(cut).toBe(text);
        else expect(text.startsWith(cut.slice(0, cut.length - marker.length))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
