import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string };

describe('stopwise (child process)', () => {
  it.each(['--version', '-v'])('prints the version of the package with %s', async (flag) => {
    const run = await runCli([flag]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(`${version}\n`);
  });

  it('lists --version in the help', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/-v, --version\s+print the version/);
  });

  it('refuses an unknown command with the usage', async () => {
    const run = await runCli(['frobnicate']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^stopwise: unknown command "frobnicate"\n\nusage: stopwise <command>/);
  });
});
