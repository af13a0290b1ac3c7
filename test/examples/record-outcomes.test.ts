import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const run = promisify(execFile);
const source = readFileSync(join(root, 'examples/record-outcomes.ts'), 'utf8');

describe('examples/record-outcomes.ts', () => {
  it('runs against the built package and prints what its last comment shows', async () => {
    const comment = /\n\/\/ (.+)\n$/.exec(source)?.[1];
    expect(comment).toBe('{ success: 1, limit: 1, gave_up: 1, need_help: 0, failed: 0 } The fixture is missing.');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/record-outcomes.ts'], { cwd: root, timeout: 60_000 });
    expect(stdout).toBe(`${comment}\n`);
  }, 90_000);

  it('is the program of docs/report.md', () => {
    const page = readFileSync(join(root, 'docs/report.md'), 'utf8');
    const blocks = [...page.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]);
    expect(blocks).toContain(source);
  });
});
