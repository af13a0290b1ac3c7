/** How long to wait between attempts. Every field has a default; tests shorten them. */
export interface RetryTiming {
  /** Delay before the first retry, doubled for each later one. Default 500 ms. */
  readonly initialDelayMs: number;
  /** Upper bound of one backoff delay. Default 8 s. */
  readonly maxDelayMs: number;
  /** The longest `retry-after` honoured; a server asking for more ends the retries. Default 60 s. */
  readonly maxRetryAfterMs: number;
  /** A number in [0, 1) for the jitter. Default `Math.random`. */
  readonly random: () => number;
  /** Waits `ms`, rejecting as soon as `signal` aborts. Default: a timer. */
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** The default retry timing: exponential backoff from 500 ms to 8 s, up to a quarter less by jitter. */
export const DEFAULT_RETRY_TIMING: RetryTiming = Object.freeze({
  initialDelayMs: 500,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60_000,
  random: Math.random,
  sleep: sleepFor,
});

/**
 * The delay before retry number `retry` (0 for the first retry): the initial
 * delay doubled per retry, capped, then shortened by up to 25% of jitter so
 * that clients that failed together do not retry together.
 */
export function backoffDelay(retry: number, timing: RetryTiming): number {
  const base = Math.min(timing.initialDelayMs * 2 ** retry, timing.maxDelayMs);
  const jitter = 1 - 0.25 * Math.min(Math.max(timing.random(), 0), 1);
  return Math.round(base * jitter);
}

/**
 * How long the server asked to wait, in milliseconds: `retry-after-ms`, or
 * `retry-after` as seconds or as an HTTP date. `undefined` when absent or
 * unreadable; a date in the past reads as 0.
 */
export function parseRetryAfter(headers: Headers, nowMs: number = Date.now()): number | undefined {
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null && /^\s*\d+(\.\d+)?\s*$/.test(milliseconds)) return Math.ceil(Number(milliseconds));
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1000);
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** Checks and fills retry timing from the defaults. */
export function resolveRetryTiming(overrides: Partial<RetryTiming> | undefined): RetryTiming {
  const timing = { ...DEFAULT_RETRY_TIMING, ...overrides };
  for (const field of ['initialDelayMs', 'maxDelayMs', 'maxRetryAfterMs'] as const) {
    const value = timing[field];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new TypeError(`retryTiming.${field} must be a non-negative number of milliseconds`);
    }
  }
  if (typeof timing.random !== 'function' || typeof timing.sleep !== 'function') {
    throw new TypeError('retryTiming.random and retryTiming.sleep must be functions');
  }
  return timing;
}

function sleepFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
