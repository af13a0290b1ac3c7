import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
let copy = '';

// A copy of the project as a fresh clone has it: the tracked files and no dist (the dependencies are linked).
beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'stopwise-clone-'));
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file !== '' && !file.startsWith('dist/') && existsSync(join(root, file)));
  for (const file of files) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    copyFileSync(join(root, file), join(copy, file));
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
});

afterAll(() => {
  if (copy === '') return;
  // The copy's build left its freshness stamp in the shared node_modules (scripts/build-if-stale.mjs names it after the
  // project folder): it goes with the copy.
  const stamp = `build-stamp-${createHash('sha256').update(realpathSync(copy)).digest('hex').slice(0, 16)}.json`;
  rmSync(join(root, 'node_modules/.cache/stopwise', stamp), { force: true });
  rmSync(copy, { recursive: true, force: true });
});

describe('packing a fresh clone', () => {
  // One run does both: the copy has no dist, so the `npm pack` of check:package builds it first (prepack), and
  // check:package compares the packed files with scripts/package-files.txt, where dist/ is listed.
  it('builds before packing, so the tarball ships dist, and leaves a tarball in the project folder alone', () => {
    expect(existsSync(join(copy, 'dist'))).toBe(false);
    const { version } = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8')) as { version: string };
    // The name npm pack gives this version's tarball.
    const mine = join(copy, `stopwise-${version}.tgz`);
    writeFileSync(mine, 'a tarball of my own\n');
    const run = spawnSync('npm', ['run', 'check:package'], { cwd: copy, encoding: 'utf8' });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('All good!');
    expect(existsSync(join(copy, 'dist/index.js'))).toBe(true);
    expect(readFileSync(mine, 'utf8')).toBe('a tarball of my own\n');
  }, 300_000);
});
