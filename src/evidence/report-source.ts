import { TextDecoder } from 'node:util';

/**
 * Where a report comes from: its text, its bytes (UTF-8, or UTF-16 with a
 * byte-order mark), or a stream of either (a Node `Readable`, a web
 * `ReadableStream`, any async iterable).
 */
export type ReportSource = string | Uint8Array | AsyncIterable<string | Uint8Array>;

/** True for the async-iterable form of a {@link ReportSource}. */
export function isStreamSource(source: unknown): source is AsyncIterable<string | Uint8Array> {
  return typeof source === 'object' && source !== null && typeof (source as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function';
}

/** A streaming decoder that picks UTF-8 or UTF-16 from the first bytes and drops a byte-order mark. */
export class ReportDecoder {
  #decoder: TextDecoder | undefined;
  #pending: Uint8Array | undefined;
  #first = true;

  /** Decodes the next piece; returns '' while it still needs bytes to choose an encoding. */
  decode(chunk: string | Uint8Array): string {
    if (typeof chunk === 'string') {
      const text = this.#first && chunk.charCodeAt(0) === 0xfeff ? chunk.slice(1) : chunk;
      if (chunk.length > 0) this.#first = false;
      return text;
    }
    let bytes = chunk;
    if (this.#decoder === undefined) {
      if (this.#pending !== undefined) {
        const joined = new Uint8Array(this.#pending.length + chunk.length);
        joined.set(this.#pending);
        joined.set(chunk, this.#pending.length);
        bytes = joined;
      }
      if (bytes.length < 2) {
        this.#pending = bytes;
        return '';
      }
      this.#pending = undefined;
      this.#decoder = new TextDecoder(sniffEncoding(bytes));
      this.#first = false;
    }
    return this.#decoder.decode(bytes, { stream: true });
  }

  /** Flushes what is left at the end of the input. */
  end(): string {
    if (this.#decoder === undefined) {
      if (this.#pending === undefined) return '';
      return new TextDecoder('utf-8').decode(this.#pending);
    }
    return this.#decoder.decode();
  }
}

function sniffEncoding(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}

/** The text of a source as a sequence of decoded chunks. */
export async function* decodeReport(source: ReportSource): AsyncGenerator<string, void, undefined> {
  const decoder = new ReportDecoder();
  if (isStreamSource(source)) {
    for await (const chunk of source) {
      const text = decoder.decode(chunk);
      if (text !== '') yield text;
    }
  } else {
    const text = decoder.decode(source);
    if (text !== '') yield text;
  }
  const rest = decoder.end();
  if (rest !== '') yield rest;
}

/** The whole text of a source, refusing more than `maxChars` characters. */
export async function readWholeReport(source: ReportSource, maxChars: number): Promise<string | { tooLarge: true }> {
  if (typeof source === 'string') return source.length > maxChars ? { tooLarge: true } : new ReportDecoder().decode(source);
  const parts: string[] = [];
  let size = 0;
  for await (const text of decodeReport(source)) {
    size += text.length;
    if (size > maxChars) return { tooLarge: true };
    parts.push(text);
  }
  return parts.join('');
}
