import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readStateFile, writeStateFile } from '../../src/hosts/state-file.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-state-file-'));
  dirs.push(dir);
  return dir;
}
const parse = (value: unknown): { n: number } | undefined =>
  typeof value === 'object' && value !== null && typeof (value as { n?: unknown }).n === 'number' ? { n: (value as { n: number }).n } : undefined;

describe('state files', () => {
  it('starts a missing file afresh, resets one that is not state with the warning, and reads what it wrote', async () => {
    const dir = folder();
    const path = join(dir, 'session.json');
    expect(await readStateFile(path, parse, () => ({ n: 0 }), 'reset')).toEqual({ state: { n: 0 } });
    writeFileSync(path, '{"n":');
    expect(await readStateFile(path, parse, () => ({ n: 0 }), 'reset')).toEqual({ state: { n: 0 }, warning: 'reset' });
    writeFileSync(path, '{"m":1}');
    expect(await readStateFile(path, parse, () => ({ n: 0 }), 'reset')).toEqual({ state: { n: 0 }, warning: 'reset' });
    await writeStateFile(path, '{"n":7}\n');
    expect(await readStateFile(path, parse, () => ({ n: 0 }), 'reset')).toEqual({ state: { n: 7 } });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['session.json']);
  });

  it('throws and leaves no temporary file behind when the rename fails', async () => {
    const dir = folder();
    const path = join(dir, 'taken');
    // a non-empty folder where the file should go: the rename over it fails
    mkdirSync(join(path, 'inside'), { recursive: true });
    await expect(writeStateFile(path, 'new')).rejects.toThrow();
    expect(readdirSync(dir)).toEqual(['taken']);
    expect(readdirSync(path)).toEqual(['inside']);
    expect(() => readFileSync(path)).toThrow();
  });
});
