import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const page = readFileSync(join(root, 'docs/telemetry.md'), 'utf8');
// Inside the package folder, so that `stopwise` resolves to this package and the SDK to its dev dependencies.
const scratch = join(root, 'test/.out/telemetry-docs');

/** The complete TypeScript programs of the page: every ```ts block not marked `// fragment`. */
const programs = [...page.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? '').filter((code) => !code.startsWith('// fragment'));

describe('docs/telemetry.md', () => {
  it('has no line over 200 characters and two complete programs', () => {
    expect(page.split('\n').filter((line) => line.length > 200)).toEqual([]);
    expect(programs).toHaveLength(2);
  });

  it.each(programs.map((code, index) => [index, code] as const))('runs program %i and prints what its comments say', (index, code) => {
    mkdirSync(scratch, { recursive: true });
    const file = join(scratch, `telemetry-${index}.mts`);
    writeFileSync(file, code);
    const run = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    const expected = [...code.matchAll(/console\.log\(.*\); \/\/ (.+)$/gm)].map((match) => match[1]);
    expect(expected.length).toBeGreaterThan(0);
    expect(run.stdout.trim().split('\n').map((line) => line.replace(/\s+/g, ' ').trim())).toEqual(expected.map((line) => line?.replace(/\s+/g, ' ').trim()));
  });
});
