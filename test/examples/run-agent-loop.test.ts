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

  it('is the finish-tool example of docs/run-loop.md, whose output block is what the comment shows', () => {
    const page = readFileSync(join(root, 'docs/run-loop.md'), 'utf8');
    const section = page.slice(page.indexOf('## A loop with a finish tool and a cost budget'));
    const [, code, output] = /```ts\n([\s\S]*?)```\n\n```text output\n([\s\S]*?)```/.exec(section) ?? [];
    expect(code).toBe(source.replace(/^(console\.log\(.*\);) \/\/ .+$/m, '$1'));
    expect(output).toBe('limit:cost 14 2.0118\n');
  });
});
