import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ReportDecoder, decodeReport, isStreamSource, readWholeReport } from '../../src/evidence/report-source.js';

async function all(source: Parameters<typeof decodeReport>[0]): Promise<string> {
  let text = '';
  for await (const chunk of decodeReport(source)) text += chunk;
  return text;
}

describe('decodeReport', () => {
  it('decodes UTF-8 split inside a character, and drops a byte-order mark', async () => {
    const bytes = Buffer.from('\ufeffcafé ✓', 'utf8');
    const pieces = [...bytes].map((byte) => Uint8Array.of(byte));
    expect(await all(Readable.from(pieces))).toBe('café ✓');
    expect(await all('\ufeffabc')).toBe('abc');
  });

  it('decodes UTF-16 with a byte-order mark', async () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<a/>', 'utf16le')]);
    expect(await all(le)).toBe('<a/>');
    const be = Buffer.from([0xfe, 0xff, 0x00, 0x3c, 0x00, 0x62, 0x00, 0x2f, 0x00, 0x3e]);
    expect(await all(be)).toBe('<b/>');
  });

  it('handles a single byte', async () => {
    const decoder = new ReportDecoder();
    expect(decoder.decode(Uint8Array.of(0x41))).toBe('');
    expect(decoder.end()).toBe('A');
  });
});

describe('readWholeReport', () => {
  it('refuses more than the limit', async () => {
    expect(await readWholeReport(Readable.from(['abc', 'def']), 4)).toEqual({ tooLarge: true });
    expect(await readWholeReport(Readable.from(['abc', 'def']), 6)).toBe('abcdef');
    expect(await readWholeReport('abcdef', 3)).toEqual({ tooLarge: true });
  });

  it('tells streams from text and bytes', () => {
    expect(isStreamSource(Readable.from([]))).toBe(true);
    expect(isStreamSource('text')).toBe(false);
    expect(isStreamSource(new Uint8Array(2))).toBe(false);
  });
});
