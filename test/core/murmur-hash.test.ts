import { describe, expect, it } from 'vitest';
import { Murmur128 } from '../../src/core/murmur-hash.js';

// Reference digests from an independent MurmurHash3 x86_128 implementation (seed 0, UTF-8 bytes).
const VECTORS: readonly (readonly [string, string])[] = [
  ['', '00000000000000000000000000000000'],
  ['hello', '2b2444a0db91def79adb31b69adb31b6'],
  ['The quick brown fox jumps over the lazy dog', '2f1583c3ecee2c675d7bf66ce5e91d2c'],
  ['héllo wörld ✓ 😀', 'c1b655c9a7511097d9145b3974e9245f'],
  ['x'.repeat(100_000), 'ca7873c0464ea8cf24ea06956776451e'],
];

describe('Murmur128', () => {
  it.each(VECTORS)('matches the reference digest for %j', (input, digest) => {
    expect(new Murmur128().update(input).digest()).toBe(digest);
  });

  it('gives the same digest whether the input comes in one piece or many', () => {
    const text = 'abcdefghijklmnopqrstuvwxyz'.repeat(1000) + '😀'.repeat(5000);
    const whole = new Murmur128().update(text).digest();
    for (const cut of [1, 15, 16, 17, 8191, 8192, 20_000]) {
      // cut on a code point boundary
      const at = Math.min(cut, text.length);
      const safe = /[\ud800-\udbff]/.test(text.charAt(at - 1)) ? at + 1 : at;
      expect(new Murmur128().update(text.slice(0, safe)).update(text.slice(safe)).digest()).toBe(whole);
    }
  });

  it('does not split a surrogate pair across its internal chunks', () => {
    const text = 'a'.repeat(8191) + '😀' + 'b';
    expect(new Murmur128().update(text).digest()).not.toBe(new Murmur128().update('a'.repeat(8191) + '\ufffd\ufffdb').digest());
  });
});
