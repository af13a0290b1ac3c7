import { describe, expect, it } from 'vitest';
import { contentText } from '../../src/providers/content-text.js';

describe('contentText', () => {
  it('joins text blocks and ignores the rest', () => {
    expect(contentText('plain')).toBe('plain');
    expect(contentText([{ type: 'text', text: 'a' }, { type: 'image' }, { type: 'text', text: 'b' }])).toBe('a\nb');
    expect(contentText(null)).toBe('');
  });
});
