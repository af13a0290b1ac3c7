import { DecisionModelError } from '../decision-model-error.js';
import { resolveRetryTiming, type RetryTiming } from './retry-timing.js';

/** Options every HTTP decision-model client shares. */
export interface HttpClientOptions {
  /** The `fetch` to send requests with; the global `fetch` by default. */
  readonly fetch?: typeof fetch;
  /** Time allowed for each attempt, body included. Default 30000. */
  readonly timeoutMs?: number;
  /** Further attempts after the first for network errors, 408, 429, 5xx and 529. Default 2. */
  readonly maxRetries?: number;
  /** Extra request headers. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Backoff timing; the defaults are for production, tests shorten them. */
  readonly retryTiming?: Partial<RetryTiming>;
}

/** A validated transport: options filled in, secrets known for redaction. */
export interface HttpTransport {
  readonly service: string;
  readonly fetch: typeof fetch;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly timing: RetryTiming;
  readonly secrets: readonly string[];
}

// Header values fetch refuses: control characters other than tab.
const INVALID_HEADER_VALUE = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/**
 * Checks the shared options and builds a transport. Throws a `configuration`
 * `DecisionModelError` naming the option (never echoing a secret).
 */
export function createHttpTransport(
  service: string,
  options: HttpClientOptions,
  secrets: readonly string[],
): HttpTransport {
  const fetchFunction = options.fetch ?? globalThis.fetch;
  if (typeof fetchFunction !== 'function') {
    throw configuration('fetch must be a function (the global fetch of Node 20 or a compatible one)');
  }
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw configuration(`timeoutMs must be a positive number of milliseconds, got ${String(timeoutMs)}`);
  }
  const maxRetries = options.maxRetries ?? 2;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) {
    throw configuration(`maxRetries must be a non-negative integer, got ${String(maxRetries)}`);
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (typeof value !== 'string' || INVALID_HEADER_VALUE.test(value)) {
      throw configuration(`headers.${name} must be a string without control characters`);
    }
    headers[name.toLowerCase()] = value;
  }
  let timing: RetryTiming;
  try {
    timing = resolveRetryTiming(options.retryTiming);
  } catch (error) {
    throw configuration((error as Error).message);
  }
  return { service, fetch: fetchFunction, timeoutMs, maxRetries, headers, timing, secrets };
}

/**
 * Checks a base URL: an absolute `http:` or `https:` address without
 * credentials. Returns it without a trailing slash.
 */
export function parseBaseURL(value: unknown, field = 'baseURL'): string {
  if (typeof value !== 'string' || value.trim() === '') throw configuration(`${field} must be a non-empty URL`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw configuration(`${field} is not a valid absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw configuration(`${field} must use http or https, got ${url.protocol}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw configuration(`${field} must not hold credentials; pass the key as apiKey`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw configuration(`${field} must not have a query or a fragment; paths are appended to it`);
  }
  return url.href.replace(/\/+$/, '');
}

/** Checks an API key without ever echoing it. */
export function assertApiKey(value: unknown, field = 'apiKey'): asserts value is string {
  if (typeof value !== 'string' || value.trim() === '') throw configuration(`${field} must be a non-empty string`);
  if (INVALID_HEADER_VALUE.test(value) || /[^\u0009\u0020-\u00ff]/.test(value)) {
    throw configuration(`${field} holds characters that cannot be sent in a header (a line break or a control character?)`);
  }
}

/** Checks a model name: a non-empty string. */
export function assertModelName(value: unknown): asserts value is string {
  if (typeof value !== 'string' || value.trim() === '') throw configuration('model must be a non-empty string');
}

function configuration(message: string): DecisionModelError {
  return new DecisionModelError('configuration', message);
}
