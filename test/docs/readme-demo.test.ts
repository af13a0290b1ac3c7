import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOOK_FREE_ENV, runCli } from '../cli/run-cli.js';

const ROOT = join(import.meta.dirname, '../..');
const SECTION = '## Try it from a clone';

describe("the README's demo", () => {
  it('names the command that runs the main job, and shows what its first replay really prints', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const start = readme.indexOf(SECTION);
    expect(start).toBeGreaterThan(-1);
    const section = readme.slice(start, readme.indexOf('\n## ', start + SECTION.length));
    expect(section).toContain('npm ci && npm run demo');
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.demo).toContain('replay examples/traces');
    const shown = /```text\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    expect(shown.trim().split('\n').length).toBeGreaterThan(1);
    const run = await runCli(['replay', 'examples/traces/01-done-after-retries.jsonl'], { cwd: ROOT, env: HOOK_FREE_ENV, timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(shown.trimEnd());
  });
});
