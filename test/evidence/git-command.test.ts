import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitStatus, mayBeInGitCheckout, runGit } from '../../src/evidence/git-command.js';
import { makeProject } from './sample-projects.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('gitStatus', () => {
  it('lists changed and untracked files, with names that need quoting left as they are', async () => {
    const made = makeProject({ 'a.txt': 'a' });
    cleanups.push(made.remove);
    execFileSync('git', ['init', '-q'], { cwd: made.dir });
    writeFileSync(join(made.dir, 'new file "q".txt'), 'x');
    const status = await gitStatus(made.dir);
    expect(status.ok).toBe(true);
    if (status.ok) {
      expect(status.entries).toEqual([
        { status: '??', path: 'a.txt' },
        { status: '??', path: 'new file "q".txt' },
      ]);
    }
  });

  it('says why it failed outside a checkout', async () => {
    const made = makeProject({});
    cleanups.push(made.remove);
    const status = await gitStatus(made.dir);
    expect(status.ok).toBe(false);
    expect((await runGit(['rev-parse', 'HEAD'], made.dir)).ok).toBe(false);
  });
});

describe('mayBeInGitCheckout', () => {
  it('is true in a checkout and in its subfolders, and for a .git file (a linked worktree or a submodule)', async () => {
    const made = makeProject({ 'src/deep/a.txt': 'a', 'linked/.git': 'gitdir: ../elsewhere\n' });
    cleanups.push(made.remove);
    execFileSync('git', ['init', '-q'], { cwd: made.dir });
    expect(await mayBeInGitCheckout(made.dir, {})).toBe(true);
    expect(await mayBeInGitCheckout(join(made.dir, 'src/deep'), {})).toBe(true);
    expect(await mayBeInGitCheckout(join(made.dir, 'linked'), {})).toBe(true);
  });

  it('is false where no folder up holds .git and GIT_DIR is not set, as git itself says', async () => {
    const made = makeProject({});
    cleanups.push(made.remove);
    mkdirSync(join(made.dir, 'sub'));
    const inside = await mayBeInGitCheckout(join(made.dir, 'sub'), {});
    // The temporary folder is only outside every checkout when git agrees.
    const gitSees = (await runGit(['rev-parse', '--show-toplevel'], made.dir)).ok;
    expect(inside).toBe(gitSees);
    expect(await mayBeInGitCheckout(join(made.dir, 'sub'), { GIT_DIR: join(made.dir, 'repo.git') })).toBe(true);
  });
});
