/** Keeps only the last `limit` bytes written to it: memory stays bounded whatever the output. */
export class OutputTail {
  readonly #limit: number;
  #chunks: Buffer[] = [];
  #size = 0;
  #dropped = false;

  constructor(limit: number) {
    this.#limit = Math.max(0, Math.floor(limit));
  }

  push(chunk: Buffer): void {
    if (this.#limit === 0) {
      if (chunk.length > 0) this.#dropped = true;
      return;
    }
    const piece = chunk.length > this.#limit ? chunk.subarray(chunk.length - this.#limit) : chunk;
    if (piece !== chunk) this.#dropped = true;
    this.#chunks.push(Buffer.from(piece));
    this.#size += piece.length;
    while (this.#size > this.#limit) {
      const first = this.#chunks[0];
      if (first === undefined) break;
      const excess = this.#size - this.#limit;
      this.#dropped = true;
      if (first.length <= excess) {
        this.#chunks.shift();
        this.#size -= first.length;
      } else {
        this.#chunks[0] = first.subarray(excess);
        this.#size -= excess;
      }
    }
  }

  /** True when earlier output was dropped. */
  get truncated(): boolean {
    return this.#dropped;
  }

  /** The kept output as text; a character cut in half at the start is dropped. */
  text(): string {
    const text = Buffer.concat(this.#chunks).toString('utf8');
    return this.#dropped ? text.replace(/^\uFFFD+/, '') : text;
  }
}
