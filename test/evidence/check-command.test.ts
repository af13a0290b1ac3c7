import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkCommand, commandCheckResult } from '../../src/evidence/check-command.js';
import { SPAWNING_TEST, isAlive, makeProject, spawnedPids, waitFor } from './sample-projects.js';

const node = process.execPath;
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function folder(files: Record<string, string> = {}): string {
  const made = makeProject(files);
  cleanups.push(made.remove);
  return made.dir;
}

describe('commandCheckResult', () => {
  it('cuts a long last line as the report readers cut messages, never inside a surrogate pair', () => {
    const output = `first\n${'e'.repeat(198)}🎉🎉🎉\n`;
    const run = { exitCode: 1, signal: null, timedOut: false, output, outputTruncated: false, durationMs: 1, finishedAt: new Date(0) };
    expect(commandCheckResult('lint', run, 1000).detail).toBe(`exit code 1: ${'e'.repeat(198)}…`);
  });
});

describe('checkCommand', { timeout: 90_000 }, () => {
  it('passes on exit code 0 and gives the exit code and last line otherwise', async () => {
    const cwd = folder();
    expect(await checkCommand({ command: node, args: ['-e', 'console.log("fine")'], cwd, timeoutMs: 30_000, name: 'ok' })).toEqual({
      name: 'ok',
      ok: true,
      detail: 'exit code 0',
    });
    const failing = await checkCommand({ command: node, args: ['-e', 'console.error("first"); console.error("type error in a.ts"); process.exit(2)'], cwd, timeoutMs: 30_000 });
    expect(failing).toMatchObject({ ok: false, detail: 'exit code 2: type error in a.ts' });
    expect(failing.name).toMatch(/ -e /);
  });

  it('runs a string through the shell', async () => {
    const result = await checkCommand({ command: 'exit 4', cwd: folder(), timeoutMs: 30_000, name: 'shell' });
    expect(result).toEqual({ name: 'shell', ok: false, detail: 'exit code 4' });
  });

  it('fails past the timeout and kills the process tree', async () => {
    const cwd = folder({ 'hang.test.mjs': SPAWNING_TEST });
    // A fake timeout, fired once the child and the grandchild both run, however slowly the machine starts them.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let settled = false;
      const checking = checkCommand({ command: node, args: ['--test', '--test-reporter=tap'], cwd, timeoutMs: 8000, name: 'hang' }).finally(() => {
        settled = true;
      });
      expect(await waitFor(() => spawnedPids(cwd) !== undefined, 60_000)).toBe(true);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(8000);
      const result = await checking;
      expect(result.ok).toBe(false);
      expect(result.detail).toMatch(/^timed out after 8 s/);
      const pids = spawnedPids(cwd)!;
      expect(await waitFor(() => !isAlive(pids.child) && !isAlive(pids.grandchild), 60_000)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('fails when the command cannot start', async () => {
    const result = await checkCommand({ command: 'stopwise-no-such-command', args: [], cwd: folder(), timeoutMs: 10_000, name: 'missing' });
    expect(result).toMatchObject({ name: 'missing', ok: false });
    expect(result.detail).toMatch(/^could not start: .*ENOENT/);
  });
});
