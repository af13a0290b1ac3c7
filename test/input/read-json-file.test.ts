import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseJsonText, readJsonFile } from '../../src/input/read-json-file.js';

const folder = mkdtempSync(join(tmpdir(), 'stopwise-json-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
};

describe('readJsonFile', () => {
  it('reads a JSON file, with or without a byte-order mark', async () => {
    expect(await readJsonFile(file('plain.json', '{"a": 1}'))).toEqual({ kind: 'found', value: { a: 1 } });
    expect(await readJsonFile(file('bom.json', '\ufeff[1, 2]'))).toEqual({ kind: 'found', value: [1, 2] });
  });

  it('tells a missing file from one that is there but unusable', async () => {
    expect(await readJsonFile(join(folder, 'nope.json'))).toEqual({ kind: 'missing' });
    expect(await readJsonFile(file('broken.json', '{"a": '))).toEqual({ kind: 'invalid', message: 'not valid JSON at line 1, column 7: unexpected end of JSON input' });
    expect(await readJsonFile(file('empty.json', ''))).toEqual({ kind: 'invalid', message: 'not valid JSON at line 1, column 1: unexpected end of JSON input' });
    mkdirSync(join(folder, 'dir.json'));
    expect(await readJsonFile(join(folder, 'dir.json'))).toEqual({ kind: 'invalid', message: 'cannot be read (is a folder, expected a file)' });
  });

  it('refuses a file larger than maxBytes without reading it', async () => {
    expect(await readJsonFile(file('big.json', `[${'1,'.repeat(100)}1]`), { maxBytes: 50 })).toEqual({ kind: 'invalid', message: 'larger than 50 bytes' });
  });

  it.skipIf(process.getuid?.() === 0)('says when a file cannot be read', async () => {
    const path = file('secret.json', '{}');
    chmodSync(path, 0o000);
    expect(await readJsonFile(path)).toEqual({ kind: 'invalid', message: 'cannot be read (permission denied)' });
  });
});

describe('parseJsonText', () => {
  it('parses text, skipping a byte-order mark, and words an error', () => {
    expect(parseJsonText('\ufeff{"ok": true}')).toEqual({ ok: true, value: { ok: true } });
    expect(parseJsonText('nope')).toEqual({ ok: false, message: "not valid JSON (unexpected token 'o')" });
  });

  it('names the line and column of a syntax error, not a character offset, on every Node version', () => {
    // A trailing comma on line 4: Node 20 says "at position 46", Node 22 adds "(line 4 column 16)".
    expect(parseJsonText('{\n  "version": 2,\n  "rules": [\n    {"id": "a",}\n  ]\n}')).toEqual({
      ok: false,
      message: 'not valid JSON at line 4, column 16: expected double-quoted property name',
    });
    expect(parseJsonText('\ufeff{"a": 1}\n{"b": 2}')).toEqual({ ok: false, message: 'not valid JSON at line 2, column 1: unexpected non-whitespace character after JSON' });
  });
});
