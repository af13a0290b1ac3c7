import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_TIMING, backoffDelay, parseRetryAfter, resolveRetryTiming } from '../../../src/decision-model/http/retry-timing.js';

const timing = (random: number) => ({ ...DEFAULT_RETRY_TIMING, random: () => random });

describe('backoffDelay', () => {
  it('doubles from the initial delay up to the cap', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((retry) => backoffDelay(retry, timing(0)))).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it('shortens each delay by up to a quarter of jitter', () => {
    expect(backoffDelay(1, timing(0.999999))).toBe(750);
    expect(backoffDelay(1, timing(0.5))).toBe(875);
    const seen = new Set(Array.from({ length: 50 }, () => backoffDelay(2, DEFAULT_RETRY_TIMING)));
    for (const delay of seen) {
      expect(delay).toBeGreaterThanOrEqual(1500);
      expect(delay).toBeLessThanOrEqual(2000);
    }
    expect(seen.size).toBeGreaterThan(1);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-30T12:00:00Z');
  const headers = (init: Record<string, string>) => new Headers(init);

  it('reads seconds', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(parseRetryAfter(headers({ 'retry-after': '0' }), now)).toBe(0);
    expect(parseRetryAfter(headers({ 'retry-after': '1.5' }), now)).toBe(1500);
  });

  it('reads an HTTP date, and a past date as 0', () => {
    expect(parseRetryAfter(headers({ 'retry-after': 'Mon, 30 Nov 2026 12:00:07 GMT' }), now)).toBe(7000);
    expect(parseRetryAfter(headers({ 'retry-after': 'Mon, 30 Nov 2026 11:59:00 GMT' }), now)).toBe(0);
  });

  it('prefers retry-after-ms', () => {
    expect(parseRetryAfter(headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
  });

  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(headers({}), now)).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after': '-5' }), now)).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after': '12abc' }), now)).toBeUndefined();
  });
});

describe('resolveRetryTiming and the default sleep', () => {
  it('fills the defaults and refuses nonsense', () => {
    expect(resolveRetryTiming({ initialDelayMs: 5 })).toMatchObject({ initialDelayMs: 5, maxDelayMs: 8000, maxRetryAfterMs: 60_000 });
    expect(() => resolveRetryTiming({ maxDelayMs: -1 })).toThrow(TypeError);
    expect(() => resolveRetryTiming({ sleep: 'no' as never })).toThrow(TypeError);
  });

  it('sleeps, and stops at once on abort', async () => {
    const started = performance.now();
    await DEFAULT_RETRY_TIMING.sleep(30);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    const controller = new AbortController();
    const pending = DEFAULT_RETRY_TIMING.sleep(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
    await expect(DEFAULT_RETRY_TIMING.sleep(60_000, AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
  });
});
