import { DecisionModelError } from '../decision-model-error.js';
import { raceAbort } from './race-abort.js';

/** The largest response body a client reads: 8 MB. */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/**
 * Reads a response body as UTF-8 text, counting bytes as they arrive and
 * refusing (with an `invalid_response` error) a body over `limitBytes`
 * without reading the rest. A declared `content-length` over the limit is
 * refused before reading anything.
 */
export async function readLimitedText(response: Response, limitBytes: number, signal: AbortSignal): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > limitBytes) {
    await cancelQuietly(response.body);
    throw tooLarge(limitBytes, `declares ${declared} bytes`);
  }
  return readText(response.body, signal, limitBytes, false);
}

/** Reads at most `limitBytes` of a body (an error body, for its message), then stops. Never throws on size or encoding. */
export async function readTextPrefix(response: Response, limitBytes: number, signal: AbortSignal): Promise<string> {
  return readText(response.body, signal, limitBytes, true);
}

async function readText(
  body: ReadableStream<Uint8Array> | null,
  signal: AbortSignal,
  limitBytes: number,
  prefixOnly: boolean,
): Promise<string> {
  if (body === null) return '';
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8', { fatal: !prefixOnly });
  const parts: string[] = [];
  let total = 0;
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await raceAbort(reader.read(), signal);
      if (done) {
        finished = true;
        break;
      }
      const room = limitBytes - total;
      total += value.byteLength;
      if (value.byteLength > room) {
        if (!prefixOnly) throw tooLarge(limitBytes, `sent more than ${limitBytes} bytes`);
        parts.push(decoder.decode(value.subarray(0, room), { stream: true }));
        break;
      }
      parts.push(decoder.decode(value, { stream: true }));
    }
    parts.push(decoder.decode());
  } catch (error) {
    if (!prefixOnly && (error as { code?: unknown } | null)?.code === 'ERR_ENCODING_INVALID_ENCODED_DATA') {
      throw new DecisionModelError('invalid_response', 'the response body is not valid UTF-8');
    }
    throw error;
  } finally {
    if (!finished) void reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  return parts.join('');
}

async function cancelQuietly(body: ReadableStream<Uint8Array> | null): Promise<void> {
  try {
    await body?.cancel();
  } catch {
    // the body is discarded either way
  }
}

function tooLarge(limitBytes: number, what: string): DecisionModelError {
  const megabytes = limitBytes / (1024 * 1024);
  return new DecisionModelError(
    'invalid_response',
    `the response body ${what}, over the ${Number.isInteger(megabytes) ? `${megabytes} MB` : `${limitBytes} byte`} limit; refused without reading the rest`,
  );
}
