import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OutputTail } from '../../src/evidence/output-tail.js';

describe('OutputTail', () => {
  it('keeps the last bytes written, whatever the chunk sizes', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 50 }), { maxLength: 30 }), fc.integer({ min: 0, max: 80 }), (chunks, limit) => {
        const tail = new OutputTail(limit);
        for (const chunk of chunks) tail.push(Buffer.from(chunk));
        const all = Buffer.concat(chunks.map((c) => Buffer.from(c)));
        const kept = all.subarray(Math.max(0, all.length - limit));
        expect(tail.truncated).toBe(all.length > limit);
        if (!tail.truncated) expect(tail.text()).toBe(kept.toString('utf8'));
        expect(Buffer.byteLength(tail.text())).toBeLessThanOrEqual(Math.max(limit, 0) * 3);
      }),
    );
  });

  it('drops a character cut in half at the start', () => {
    const tail = new OutputTail(4);
    tail.push(Buffer.from('ab✓cd'));
    expect(tail.text()).toBe('cd');
    expect(tail.truncated).toBe(true);
  });
});
