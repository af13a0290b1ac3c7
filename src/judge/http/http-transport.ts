import { describeValue } from '../../core/test-evidence.js';
import type { EvaluationRequest } from '../evaluation-client.js';
import { EvaluationError, isEvaluationError } from '../evaluation-error.js';
import { describeErrorBody } from './describe-error-body.js';
import { mapHttpStatus } from './map-http-status.js';
import { raceAbort } from './race-abort.js';
import { MAX_RESPONSE_BYTES, readLimitedText, readTextPrefix } from './read-limited-body.js';
import { redactSecrets } from './redact-secrets.js';
import { backoffDelay, parseRetryAfter, resolveRetryTiming, type RetryTiming } from './retry-timing.js';

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

/** One HTTP call: where, what, and how to read a successful JSON body. */
export interface HttpCall<T> {
  readonly method: 'GET' | 'POST';
  readonly url: URL;
  readonly body?: string;
  /** Reads the parsed JSON body; throws an `EvaluationError` for a body that answers wrongly. */
  readonly read: (json: unknown) => T;
}

const ERROR_BODY_BYTES = 16 * 1024;
// Header values fetch refuses: control characters other than tab.
const INVALID_HEADER_VALUE = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/**
 * Checks the shared options and builds a transport. Throws a `configuration`
 * `EvaluationError` naming the option (never echoing a secret).
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

/**
 * Checks a request before anything is sent: an object with at least one
 * question, each a yes/no question. Anything else is `invalid_request`.
 */
export function assertSendableRequest(request: unknown): asserts request is EvaluationRequest {
  if (typeof request !== 'object' || request === null) {
    throw new EvaluationError('invalid_request', 'evaluate needs a request { state, questions }');
  }
  const questions: unknown = (request as { questions?: unknown }).questions;
  if (typeof questions !== 'object' || questions === null || Object.keys(questions).length === 0) {
    throw new EvaluationError('invalid_request', 'a request needs at least one question');
  }
  for (const [name, question] of Object.entries(questions)) {
    const type: unknown = (question as { type?: unknown } | null)?.type;
    if (type !== 'boolean') {
      throw new EvaluationError(
        'invalid_request',
        `question "${name}" has type ${describeValue(type)}; only yes/no questions (booleanQuestion) are supported`,
      );
    }
  }
}

/** True for a token count a server reported: a finite number at or above 0. */
export function isTokenCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/**
 * Sends a call, retrying network errors, 408, 429, 5xx and 529 with
 * exponential backoff and jitter (honouring `retry-after`), with the timeout
 * applied to each attempt, and stopping at once when `signal` aborts. Rejects
 * only with an `EvaluationError` whose `attempts` says how many were made.
 */
export async function sendWithRetries<T>(transport: HttpTransport, call: HttpCall<T>, signal?: AbortSignal): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let failure: EvaluationError;
    try {
      return await attemptOnce(transport, call, signal);
    } catch (error) {
      failure = isEvaluationError(error) ? error : unexpected(transport, error);
    }
    if (!failure.retryable || attempt > transport.maxRetries) throw withAttempts(failure, attempt);
    const retryAfter = failure.retryAfterMs;
    if (retryAfter !== undefined && retryAfter > transport.timing.maxRetryAfterMs) {
      throw withAttempts(failure, attempt, `the server asked to wait ${Math.ceil(retryAfter / 1000)} s, longer than allowed`);
    }
    try {
      await transport.timing.sleep(retryAfter ?? backoffDelay(attempt - 1, transport.timing), signal);
    } catch {
      throw new EvaluationError('aborted', `the call to ${transport.service} was aborted while waiting to retry`, {
        attempts: attempt,
      });
    }
    if (signal?.aborted === true) {
      throw new EvaluationError('aborted', `the call to ${transport.service} was aborted while waiting to retry`, {
        attempts: attempt,
      });
    }
  }
}

async function attemptOnce<T>(transport: HttpTransport, call: HttpCall<T>, signal: AbortSignal | undefined): Promise<T> {
  const where = describeUrl(call.url);
  if (signal?.aborted === true) throw new EvaluationError('aborted', `the call to ${transport.service} was aborted`);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new EvaluationError('timeout', `no answer from ${transport.service} in time`));
  }, transport.timeoutMs);
  const onAbort = (): void => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  let status: number | undefined;
  let requestId: string | undefined;
  try {
    const response = await raceAbort(
      transport.fetch(call.url, {
        method: call.method,
        headers: {
          ...transport.headers,
          accept: 'application/json',
          ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(call.body === undefined ? {} : { body: call.body }),
        redirect: 'manual',
        signal: controller.signal,
      }),
      controller.signal,
    );
    status = response.status;
    requestId = readRequestId(response.headers);
    if (!response.ok) {
      const { kind, label } = mapHttpStatus(status);
      const text = await readTextPrefix(response, ERROR_BODY_BYTES, controller.signal).catch(() => '');
      const detail = describeErrorBody(text, transport.secrets);
      const retryAfterMs = parseRetryAfter(response.headers);
      throw new EvaluationError(kind, `${transport.service} answered ${status} (${label}) at ${where}${detail === '' ? '' : `: ${detail}`}`, {
        status,
        ...(requestId === undefined ? {} : { requestId }),
        ...(retryAfterMs === undefined || (kind !== 'rate_limited' && kind !== 'server') ? {} : { retryAfterMs }),
      });
    }
    // Scrubbed before anything reads it, so that no message built from the body can quote the key.
    const text = redactSecrets(await readLimitedText(response, MAX_RESPONSE_BYTES, controller.signal), transport.secrets);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      const what = describeErrorBody(text, transport.secrets);
      throw new EvaluationError(
        'invalid_response',
        `${transport.service} sent a body that is not JSON (${text.length === 0 ? 'empty' : what})`,
      );
    }
    return call.read(json);
  } catch (error) {
    throw classify(transport, error, { signal, timedOut, where, status, requestId });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

function classify(
  transport: HttpTransport,
  error: unknown,
  context: {
    signal: AbortSignal | undefined;
    timedOut: boolean;
    where: string;
    status: number | undefined;
    requestId: string | undefined;
  },
): EvaluationError {
  const ids = {
    ...(context.status === undefined ? {} : { status: context.status }),
    ...(context.requestId === undefined ? {} : { requestId: context.requestId }),
  };
  if (context.signal?.aborted === true) {
    return new EvaluationError('aborted', `the call to ${transport.service} was aborted`, ids);
  }
  if (context.timedOut) {
    return new EvaluationError('timeout', `no answer from ${transport.service} at ${context.where} within ${transport.timeoutMs} ms`, ids);
  }
  if (isEvaluationError(error)) {
    if (error.status !== undefined || (context.status === undefined && context.requestId === undefined)) return error;
    return new EvaluationError(error.kind, redactSecrets(error.message, transport.secrets), { ...ids });
  }
  if (context.status !== undefined) return unexpected(transport, error, ids);
  const reason = describeNetworkFailure(error, transport.secrets);
  return new EvaluationError('network', `could not reach ${transport.service} at ${context.where}: ${reason}`, {
    cause: sanitizedCause(reason, error),
  });
}

function unexpected(transport: HttpTransport, error: unknown, ids: { status?: number; requestId?: string } = {}): EvaluationError {
  const message = redactSecrets(error instanceof Error ? error.message : String(error), transport.secrets);
  return new EvaluationError('invalid_response', `reading the answer of ${transport.service} failed: ${message}`, ids);
}

function withAttempts(error: EvaluationError, attempts: number, note?: string): EvaluationError {
  const suffix = [note, attempts > 1 ? `after ${attempts} attempts` : undefined].filter(Boolean).join(', ');
  return new EvaluationError(error.kind, suffix === '' ? error.message : `${error.message} (${suffix})`, {
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.requestId === undefined ? {} : { requestId: error.requestId }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    ...(error.cause === undefined ? {} : { cause: error.cause }),
    attempts,
  });
}

/** The request id a server sent, from the first of the usual headers present. */
export function readRequestId(headers: Headers): string | undefined {
  for (const name of ['x-typesafe-request-id', 'x-request-id', 'request-id']) {
    const value = headers.get(name);
    if (value !== null && value !== '') return value.slice(0, 200);
  }
  return undefined;
}

function describeUrl(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

function describeNetworkFailure(error: unknown, secrets: readonly string[]): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    parts.push(typeof code === 'string' ? `${code} ${current.message}` : current.message);
    current = (current as { cause?: unknown }).cause;
  }
  const text = parts.length === 0 ? String(error) : parts.join(': ');
  return redactSecrets(text, secrets).slice(0, 300);
}

function sanitizedCause(reason: string, error: unknown): Error {
  const cause = new Error(reason);
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      (cause as Error & { code?: string }).code = code;
      break;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return cause;
}

function configuration(message: string): EvaluationError {
  return new EvaluationError('configuration', message);
}
