import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitStatus, runGit } from '../../src/evidence/git-command.js';
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
