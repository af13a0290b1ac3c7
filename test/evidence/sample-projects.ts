import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A throwaway folder in the OS temp folder, holding the given files. */
export function makeProject(files: Readonly<Record<string, string>>): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-evidence-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** True while a process with this id exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Waits until `check` is true or `ms` have passed; returns the last answer. Its timer is real even under fake timers. */
export async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    if (check()) return true;
    await sleep(20);
  }
  return check();
}

/** The ids `SPAWNING_TEST` wrote to `pids.json` in `dir`, once it has written them whole. */
export function spawnedPids(dir: string): { child: number; grandchild: number } | undefined {
  try {
    const pids = JSON.parse(readFileSync(join(dir, 'pids.json'), 'utf8')) as { child?: unknown; grandchild?: unknown };
    return typeof pids.child === 'number' && typeof pids.grandchild === 'number' ? { child: pids.child, grandchild: pids.grandchild } : undefined;
  } catch {
    return undefined;
  }
}

export const PASSING_TESTS = `import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
describe('math', () => {
  it('adds', () => assert.equal(1 + 1, 2));
  it('multiplies', () => assert.equal(2 * 3, 6));
});
`;

export const FAILING_TESTS = `import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
describe('math', () => {
  it('adds', () => assert.equal(1 + 1, 2));
  it('rounds down', () => assert.equal(7 / 2, 3));
});
`;

/** A test that starts a child which starts a grandchild, writes both ids, and then waits forever. */
export const SPAWNING_TEST = `import { test } from 'node:test';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
test('hangs with a child and a grandchild', async () => {
  const grandchild = "setInterval(() => {}, 1000)";
  const child = \`const { spawn } = require('node:child_process');
const g = spawn(process.execPath, ['-e', \${JSON.stringify(grandchild)}], { stdio: 'ignore' });
require('node:fs').writeFileSync('pids.json', JSON.stringify({ child: process.pid, grandchild: g.pid }));
setInterval(() => {}, 1000);\`;
  spawn(process.execPath, ['-e', child], { stdio: 'ignore' });
  await new Promise(() => {});
});
`;
