// MurmurHash3 x86_128 (Austin Appleby, public domain) over the UTF-8 bytes of
// a sequence of strings, streamed through a fixed scratch buffer so that the
// memory used does not grow with the input.

const C1 = 0x239b961b;
const C2 = 0xab0e9789;
const C3 = 0x38b34ae5;
const C4 = 0xa1e38b93;

const CHUNK_CHARS = 8192;
// A UTF-16 code unit encodes to at most 3 UTF-8 bytes; 16 more for the carried tail.
const BUFFER_BYTES = CHUNK_CHARS * 3 + 16;

const encoder = new TextEncoder();
const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
let scratch: Uint8Array | undefined;
let scratchWords: Uint32Array | undefined;
// Views of the scratch buffer starting at each possible carried-tail length.
let scratchFrom: Uint8Array[] = [];

function rotl(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r));
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}

/** Incremental MurmurHash3 x86_128; `update` takes strings (hashed as UTF-8). */
export class Murmur128 {
  #h1: number;
  #h2: number;
  #h3: number;
  #h4: number;
  #length = 0;
  #carry = new Uint8Array(16);
  #carried = 0;

  constructor(seed = 0) {
    this.#h1 = seed >>> 0;
    this.#h2 = seed >>> 0;
    this.#h3 = seed >>> 0;
    this.#h4 = seed >>> 0;
  }

  update(text: string): this {
    if (scratch === undefined) {
      scratch = new Uint8Array(BUFFER_BYTES);
      scratchWords = new Uint32Array(scratch.buffer);
      const whole = scratch;
      scratchFrom = Array.from({ length: 16 }, (_, offset) => whole.subarray(offset));
    }
    const buffer = scratch;
    let start = 0;
    while (start < text.length) {
      let end = Math.min(start + CHUNK_CHARS, text.length);
      // Never split a surrogate pair across two chunks.
      if (end < text.length) {
        const code = text.charCodeAt(end - 1);
        if (code >= 0xd800 && code <= 0xdbff) end -= 1;
      }
      const carry = this.#carry;
      for (let i = 0; i < this.#carried; i++) buffer[i] = carry[i] as number;
      const chunk = end - start === text.length ? text : text.slice(start, end);
      const { written } = encoder.encodeInto(chunk, scratchFrom[this.#carried] as Uint8Array);
      const total = this.#carried + written;
      const blocks = total >>> 4;
      this.#blocks(buffer, blocks);
      this.#carried = total & 15;
      for (let i = 0, from = blocks << 4; i < this.#carried; i++) carry[i] = buffer[from + i] as number;
      this.#length += written;
      start = end;
    }
    return this;
  }

  #blocks(buffer: Uint8Array, blocks: number): void {
    let h1 = this.#h1;
    let h2 = this.#h2;
    let h3 = this.#h3;
    let h4 = this.#h4;
    const words = scratchWords;
    for (let i = 0; i < blocks; i++) {
      let k1: number;
      let k2: number;
      let k3: number;
      let k4: number;
      if (littleEndian && words !== undefined) {
        const w = i << 2;
        k1 = words[w] as number;
        k2 = words[w + 1] as number;
        k3 = words[w + 2] as number;
        k4 = words[w + 3] as number;
      } else {
        const b = i << 4;
        k1 = readWord(buffer, b);
        k2 = readWord(buffer, b + 4);
        k3 = readWord(buffer, b + 8);
        k4 = readWord(buffer, b + 12);
      }
      k1 = Math.imul(k1, C1);
      k1 = rotl(k1, 15);
      k1 = Math.imul(k1, C2);
      h1 ^= k1;
      h1 = rotl(h1, 19);
      h1 = (h1 + h2) | 0;
      h1 = (Math.imul(h1, 5) + 0x561ccd1b) | 0;

      k2 = Math.imul(k2, C2);
      k2 = rotl(k2, 16);
      k2 = Math.imul(k2, C3);
      h2 ^= k2;
      h2 = rotl(h2, 17);
      h2 = (h2 + h3) | 0;
      h2 = (Math.imul(h2, 5) + 0x0bcaa747) | 0;

      k3 = Math.imul(k3, C3);
      k3 = rotl(k3, 17);
      k3 = Math.imul(k3, C4);
      h3 ^= k3;
      h3 = rotl(h3, 15);
      h3 = (h3 + h4) | 0;
      h3 = (Math.imul(h3, 5) + 0x96cd1c35) | 0;

      k4 = Math.imul(k4, C4);
      k4 = rotl(k4, 18);
      k4 = Math.imul(k4, C1);
      h4 ^= k4;
      h4 = rotl(h4, 13);
      h4 = (h4 + h1) | 0;
      h4 = (Math.imul(h4, 5) + 0x32ac3b17) | 0;
    }
    this.#h1 = h1;
    this.#h2 = h2;
    this.#h3 = h3;
    this.#h4 = h4;
  }

  /** The 128-bit digest as 32 lowercase hex characters. */
  digest(): string {
    const tail = this.#carry;
    const rest = this.#carried;
    let h1 = this.#h1;
    let h2 = this.#h2;
    let h3 = this.#h3;
    let h4 = this.#h4;
    if (rest > 12) {
      let k4 = tailWord(tail, 12, rest);
      k4 = Math.imul(k4, C4);
      k4 = rotl(k4, 18);
      k4 = Math.imul(k4, C1);
      h4 ^= k4;
    }
    if (rest > 8) {
      let k3 = tailWord(tail, 8, rest);
      k3 = Math.imul(k3, C3);
      k3 = rotl(k3, 17);
      k3 = Math.imul(k3, C4);
      h3 ^= k3;
    }
    if (rest > 4) {
      let k2 = tailWord(tail, 4, rest);
      k2 = Math.imul(k2, C2);
      k2 = rotl(k2, 16);
      k2 = Math.imul(k2, C3);
      h2 ^= k2;
    }
    if (rest > 0) {
      let k1 = tailWord(tail, 0, rest);
      k1 = Math.imul(k1, C1);
      k1 = rotl(k1, 15);
      k1 = Math.imul(k1, C2);
      h1 ^= k1;
    }
    const length = this.#length | 0;
    h1 ^= length;
    h2 ^= length;
    h3 ^= length;
    h4 ^= length;
    h1 = (h1 + h2 + h3 + h4) | 0;
    h2 = (h2 + h1) | 0;
    h3 = (h3 + h1) | 0;
    h4 = (h4 + h1) | 0;
    h1 = fmix(h1);
    h2 = fmix(h2);
    h3 = fmix(h3);
    h4 = fmix(h4);
    h1 = (h1 + h2 + h3 + h4) | 0;
    h2 = (h2 + h1) | 0;
    h3 = (h3 + h1) | 0;
    h4 = (h4 + h1) | 0;
    return hex(h1) + hex(h2) + hex(h3) + hex(h4);
  }
}

/** The little-endian word at `from`, reading only the bytes below `end`. */
function tailWord(tail: Uint8Array, from: number, end: number): number {
  let word = 0;
  for (let i = Math.min(end, from + 4) - 1; i >= from; i--) word = (word << 8) | (tail[i] as number);
  return word;
}

function readWord(buffer: Uint8Array, at: number): number {
  return (
    ((buffer[at] as number) |
      ((buffer[at + 1] as number) << 8) |
      ((buffer[at + 2] as number) << 16) |
      ((buffer[at + 3] as number) << 24)) >>>
    0
  );
}

const HEX_BYTES: readonly string[] = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** A 32-bit word as 8 lowercase hex characters (a table lookup per byte: `toString(16)` is several times slower). */
export function hex(word: number): string {
  return (
    (HEX_BYTES[(word >>> 24) & 0xff] as string) +
    (HEX_BYTES[(word >>> 16) & 0xff] as string) +
    (HEX_BYTES[(word >>> 8) & 0xff] as string) +
    (HEX_BYTES[word & 0xff] as string)
  );
}
