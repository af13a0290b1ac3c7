import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const run = promisify(execFile);
const source = readFileSync(join(root, 'examples/run-agent-loop.ts'), 'utf8');

describe('examples/run-agent-loop.ts', () => {
  it('runs against the built package and prints the outcome its comment shows', async () => {
    const comment = /^console\.log\(.*\); \/\/ (.+)$/m.exec(source)?.[1];
    // Three turns: a failing test, then the decision model in the mid band, then tests and criteria passed; the
    // decision model was asked after each of them.
    expect(comment).toBe('success 3 tests_and_criteria_passed 3');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/run-agent-loop.ts'], { cwd: root, timeout: 60_000 });
    expect(stdout).toBe(`${comment}\n`);
  }, 90_000);

  it('is the runAgentLoop example of docs/run-loop.md, whose output block is what the comment shows', () => {
    const page = readFileSync(join(root, 'docs/run-loop.md'), 'utf8');
    const code = source.replace(/^(console\.log\(.*\);) \/\/ .+$/m, '$1');
    const blocks = [...page.matchAll(/```ts\n([\s\S]*?)```\n\n```text output\n([\s\S]*?)```/g)].map(([, block, output]) => ({ block, output }));
    expect(blocks).toContainEqual({ block: code, output: 'success 3 tests_and_criteria_passed 3\n' });
  });
});
