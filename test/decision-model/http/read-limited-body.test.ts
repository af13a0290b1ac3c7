import { describe, expect, it } from 'vitest';
import { isDecisionModelError } from '../../../src/decision-model/decision-model-error.js';
import { MAX_RESPONSE_BYTES, readLimitedText, readTextPrefix } from '../../../src/decision-model/http/read-limited-body.js';

/** A response whose body is `chunks`, recording how many chunks were pulled and whether it was cancelled. */
function streamed(chunks: readonly Uint8Array[], headers: Record<string, string> = {}) {
  const seen = { pulled: 0, cancelled: false };
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[index++];
      if (chunk === undefined) controller.close();
      else {
        seen.pulled += 1;
        controller.enqueue(chunk);
      }
    },
    cancel() {
      seen.cancelled = true;
    },
  }, { highWaterMark: 0 });
  return { response: new Response(body, { headers }), seen };
}

const signal = new AbortController().signal;
const MB = 1024 * 1024;

describe('readLimitedText', () => {
  it('reads a body split anywhere, also inside a multi-byte character', async () => {
    const bytes = new TextEncoder().encode('{"note":"naïve € 😀"}');
    const { response } = streamed([bytes.subarray(0, 11), bytes.subarray(11, 17), bytes.subarray(17)]);
    expect(await readLimitedText(response, 1024, signal)).toBe('{"note":"naïve € 😀"}');
  });

  it('stops at the limit while reading, without pulling the rest', async () => {
    const chunk = new Uint8Array(MB).fill(0x61);
    const { response, seen } = streamed(Array.from({ length: 20 }, () => chunk));
    const error = await readLimitedText(response, MAX_RESPONSE_BYTES, signal).catch((caught: unknown) => caught);
    expect(isDecisionModelError(error) && error.kind).toBe('invalid_response');
    expect(seen.pulled).toBe(9);
    expect(seen.cancelled).toBe(true);
  });

  it('refuses a declared content-length over the limit before reading', async () => {
    const { response, seen } = streamed([new Uint8Array(10)], { 'content-length': String(20 * MB) });
    await expect(readLimitedText(response, MAX_RESPONSE_BYTES, signal)).rejects.toMatchObject({ kind: 'invalid_response' });
    expect(seen.pulled).toBe(0);
  });

  it('accepts a body of exactly the limit', async () => {
    const { response } = streamed([new Uint8Array(100).fill(0x62)]);
    expect(await readLimitedText(response, 100, signal)).toHaveLength(100);
  });

  it('refuses bytes that are not UTF-8', async () => {
    const { response } = streamed([Uint8Array.from([0x22, 0xc3, 0x28, 0x22])]);
    await expect(readLimitedText(response, 100, signal)).rejects.toMatchObject({ kind: 'invalid_response' });
  });

  it('gives an empty string for no body', async () => {
    expect(await readLimitedText(new Response(null), 100, signal)).toBe('');
  });

  it('rejects with the signal reason when aborted mid-body', async () => {
    const body = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => undefined) });
    const controller = new AbortController();
    const pending = readLimitedText(new Response(body), 100, controller.signal);
    controller.abort(new Error('gone'));
    await expect(pending).rejects.toThrow('gone');
  });
});

describe('readTextPrefix', () => {
  it('keeps only the first bytes of a long error body, leniently decoded', async () => {
    const { response, seen } = streamed([new TextEncoder().encode('x'.repeat(50)), new Uint8Array([0xff]), new Uint8Array(1000)]);
    expect(await readTextPrefix(response, 20, signal)).toBe('x'.repeat(20));
    expect(seen.cancelled).toBe(true);
  });
});
