import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const run = promisify(execFile);

describe('examples/quick-start.ts', () => {
  it('runs against the built package and prints the decision', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/quick-start.ts'], { cwd: root });
    expect(stdout.split('\n')[0]).toBe('handoff_human evidence_contradicts_model');
    expect(stdout).toMatch(/rule 4\): 1 test failed: auth > rejects expired token/);
  });

  it('is the example on the first screen of the README', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const firstTs = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(firstTs).toBe(readFileSync(join(root, 'examples/quick-start.ts'), 'utf8'));
  });
});
