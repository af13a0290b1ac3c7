import { describe, expect, it } from 'vitest';
import { geminiAddToolCall, initialGeminiLoopState } from '../../../bench/stall/gemini-loop-detection.js';

const feed = (calls: readonly [string, unknown][]): boolean =>
  calls.reduce((state, [name, args]) => geminiAddToolCall(state, name, args), initialGeminiLoopState()).detected;

describe('Gemini CLI tool-call loop check (port)', () => {
  it('needs the same call 5 times, or a cycle of up to 5 calls repeated 5 times', () => {
    expect(feed(Array.from({ length: 4 }, () => ['read', { p: 'a' }] as [string, unknown]))).toBe(false);
    expect(feed(Array.from({ length: 5 }, () => ['read', { p: 'a' }] as [string, unknown]))).toBe(true);
    const ab = Array.from({ length: 10 }, (_, i) => [i % 2 ? 'a' : 'b', {}] as [string, unknown]);
    expect(feed(ab.slice(0, 9))).toBe(false);
    expect(feed(ab)).toBe(true);
  });

  it('keeps argument key order in the key', () => {
    const calls = Array.from({ length: 5 }, (_, i) => ['t', i % 2 ? { a: 1, b: 2 } : { b: 2, a: 1 }] as [string, unknown]);
    expect(feed(calls)).toBe(false);
  });
});
