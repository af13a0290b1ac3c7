import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkGitClean } from '../../src/evidence/check-git-clean.js';
import { makeProject } from './sample-projects.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd, stdio: 'ignore' });
}

describe('checkGitClean', { timeout: 60_000 }, () => {
  it('passes on a clean checkout and lists what changed otherwise', async () => {
    const made = makeProject({ 'a.txt': 'a', '.gitignore': '*.log\n' });
    cleanups.push(made.remove);
    const cwd = made.dir;
    git(cwd, 'init', '-q');
    git(cwd, 'add', '.');
    git(cwd, 'commit', '-q', '-m', 'first');
    writeFileSync(join(cwd, 'debug.log'), 'ignored');
    expect(await checkGitClean({ cwd })).toEqual({ name: 'git-clean', ok: true, detail: 'the working tree is clean' });
    writeFileSync(join(cwd, 'a.txt'), 'changed');
    writeFileSync(join(cwd, 'new.txt'), 'new');
    expect(await checkGitClean({ cwd })).toEqual({ name: 'git-clean', ok: false, detail: '2 changed: M a.txt, ?? new.txt' });
  });

  it('fails outside a git checkout', async () => {
    const made = makeProject({ 'a.txt': 'a' });
    cleanups.push(made.remove);
    const result = await checkGitClean({ cwd: made.dir, name: 'tree' });
    expect(result).toMatchObject({ name: 'tree', ok: false });
    expect(result.detail).toMatch(/^not a git checkout/);
  });
});
