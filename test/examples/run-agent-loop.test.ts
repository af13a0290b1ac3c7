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
    expect(comment).toBe('limit:cost 14 2.0118');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/run-agent-loop.ts'], { cwd: root, timeout: 60_000 });
    expect(stdout).toBe(`${comment}\n`);
  }, 90_000);

  it('is the example of the run loop section of the README', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## The run loop: `runAgentLoop`'));
    expect(/```ts\n([\s\S]*?)```/.exec(section)?.[1]).toBe(source);
  });
});
