import { DecisionModelError, isDecisionModelError } from '../decision-model-error.js';
import { describeErrorBody } from './describe-error-body.js';
import type { HttpTransport } from './http-transport.js';
import { mapHttpStatus } from './map-http-status.js';
import { raceAbort } from './race-abort.js';
import { MAX_RESPONSE_BYTES, readLimitedText, readTextPrefix } from './read-limited-body.js';
import { redactSecrets } from './redact-secrets.js';
import { backoffDelay, parseRetryAfter } from './retry-timing.js';
import { formatDuration } from '../../core/format-duration.js';

/** One HTTP call: where, what, and how to read a successful JSON body. */
export interface HttpCall<T> {
  readonly method: 'GET' | 'POST';
  readonly url: URL;
  readonly body?: string;
  /** Reads the parsed JSON body; throws a `DecisionModelError` for a body that answers wrongly. */
  readonly read: (json: unknown) => T;
}

const ERROR_BODY_BYTES = 16 * 1024;

/**
 * Sends a call, retrying network errors, 408, 429, 5xx and 529 with
 * exponential backoff and jitter (honouring `retry-after`), with the timeout
 * applied to each attempt, and stopping at once when `signal` aborts. Rejects
 * only with a `DecisionModelError` whose `attempts` says how many were made.
 */
export async function sendWithRetries<T>(transport: HttpTransport, call: HttpCall<T>, signal?: AbortSignal): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let failure: DecisionModelError;
    try {
      return await attemptOnce(transport, call, signal);
    } catch (error) {
      failure = isDecisionModelError(error) ? error : unexpected(transport, error);
    }
    if (!failure.retryable || attempt > transport.maxRetries) throw withAttempts(failure, attempt);
    const retryAfter = failure.retryAfterMs;
    if (retryAfter !== undefined && retryAfter > transport.timing.maxRetryAfterMs) {
      throw withAttempts(failure, attempt, `the server asked to wait ${formatDuration(retryAfter)}, longer than allowed`);
    }
    try {
      await transport.timing.sleep(retryAfter ?? backoffDelay(attempt - 1, transport.timing), signal);
    } catch {
      throw new DecisionModelError('aborted', `the call to ${transport.service} was aborted while waiting to retry`, {
        attempts: attempt,
      });
    }
    if (signal?.aborted === true) {
      throw new DecisionModelError('aborted', `the call to ${transport.service} was aborted while waiting to retry`, {
        attempts: attempt,
      });
    }
  }
}

async function attemptOnce<T>(transport: HttpTransport, call: HttpCall<T>, signal: AbortSignal | undefined): Promise<T> {
  const where = describeUrl(call.url);
  if (signal?.aborted === true) throw new DecisionModelError('aborted', `the call to ${transport.service} was aborted`);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DecisionModelError('timeout', `no answer from ${transport.service} in time`));
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
      throw new DecisionModelError(kind, `${transport.service} answered ${status} (${label}) at ${where}${detail === '' ? '' : `: ${detail}`}`, {
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
      throw new DecisionModelError(
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
): DecisionModelError {
  const ids = {
    ...(context.status === undefined ? {} : { status: context.status }),
    ...(context.requestId === undefined ? {} : { requestId: context.requestId }),
  };
  if (context.signal?.aborted === true) {
    return new DecisionModelError('aborted', `the call to ${transport.service} was aborted`, ids);
  }
  if (context.timedOut) {
    return new DecisionModelError('timeout', `no answer from ${transport.service} at ${context.where} within ${formatDuration(transport.timeoutMs)}`, ids);
  }
  if (isDecisionModelError(error)) {
    if (error.status !== undefined || (context.status === undefined && context.requestId === undefined)) return error;
    return new DecisionModelError(error.kind, redactSecrets(error.message, transport.secrets), { ...ids });
  }
  if (context.status !== undefined) return unexpected(transport, error, ids);
  const reason = describeNetworkFailure(error, transport.secrets);
  return new DecisionModelError('network', `could not reach ${transport.service} at ${context.where}: ${reason}`, {
    cause: sanitizedCause(reason, error),
  });
}

function unexpected(transport: HttpTransport, error: unknown, ids: { status?: number; requestId?: string } = {}): DecisionModelError {
  const message = redactSecrets(error instanceof Error ? error.message : String(error), transport.secrets);
  return new DecisionModelError('invalid_response', `reading the answer of ${transport.service} failed: ${message}`, ids);
}

function withAttempts(error: DecisionModelError, attempts: number, note?: string): DecisionModelError {
  const suffix = [note, attempts > 1 ? `after ${attempts} attempts` : undefined].filter(Boolean).join(', ');
  return new DecisionModelError(error.kind, suffix === '' ? error.message : `${error.message} (${suffix})`, {
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
