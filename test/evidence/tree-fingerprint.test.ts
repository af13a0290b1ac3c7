import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestEvidence } from '../../src/core/test-evidence.js';
import { fingerprintWorkingTree, isEvidenceFresh } from '../../src/evidence/tree-fingerprint.js';
import { makeProject } from './sample-projects.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', ...args], { cwd, stdio: 'ignore' });
}

function checkout(): string {
  const made = makeProject({ 'src/a.ts': 'export const a = 1;\n', '.gitignore': 'build/\n' });
  cleanups.push(made.remove);
  git(made.dir, 'init', '-q');
  git(made.dir, 'add', '.');
  git(made.dir, 'commit', '-q', '-m', 'first');
  return made.dir;
}

describe('fingerprintWorkingTree in a git checkout', { timeout: 60_000 }, () => {
  it('is stable while nothing changes', async () => {
    const cwd = checkout();
    const first = await fingerprintWorkingTree(cwd);
    expect(first).toMatch(/^git:[0-9a-f]{64}$/);
    expect(await fingerprintWorkingTree(cwd)).toBe(first);
    expect(await fingerprintWorkingTree(join(cwd, 'src'))).toBe(first);
  });

  it('changes with a tracked edit, again with a second edit of the same file, and back when reverted', async () => {
    const cwd = checkout();
    const clean = await fingerprintWorkingTree(cwd);
    writeFileSync(join(cwd, 'src/a.ts'), 'export const a = 2;\n');
    const edited = await fingerprintWorkingTree(cwd);
    expect(edited).not.toBe(clean);
    writeFileSync(join(cwd, 'src/a.ts'), 'export const a = 3;\n');
    const edited2 = await fingerprintWorkingTree(cwd);
    expect(edited2).not.toBe(edited);
    writeFileSync(join(cwd, 'src/a.ts'), 'export const a = 1;\n');
    expect(await fingerprintWorkingTree(cwd)).toBe(clean);
  });

  it('sees staged changes, untracked files and deletions, but not ignored files', async () => {
    const cwd = checkout();
    const clean = await fingerprintWorkingTree(cwd);
    mkdirSync(join(cwd, 'build'));
    writeFileSync(join(cwd, 'build/out.js'), 'ignored');
    expect(await fingerprintWorkingTree(cwd)).toBe(clean);
    writeFileSync(join(cwd, 'notes.txt'), 'new');
    const untracked = await fingerprintWorkingTree(cwd);
    expect(untracked).not.toBe(clean);
    git(cwd, 'add', 'notes.txt');
    expect(await fingerprintWorkingTree(cwd)).not.toBe(untracked);
    rmSync(join(cwd, 'notes.txt'));
    git(cwd, 'rm', '-q', '--cached', 'notes.txt');
    expect(await fingerprintWorkingTree(cwd)).toBe(clean);
    rmSync(join(cwd, 'src/a.ts'));
    expect(await fingerprintWorkingTree(cwd)).not.toBe(clean);
  });

  it('changes with a new commit', async () => {
    const cwd = checkout();
    const before = await fingerprintWorkingTree(cwd);
    writeFileSync(join(cwd, 'src/b.ts'), 'export const b = 1;\n');
    git(cwd, 'add', '.');
    git(cwd, 'commit', '-q', '-m', 'second');
    expect(await fingerprintWorkingTree(cwd)).not.toBe(before);
  });
});

describe('fingerprintWorkingTree outside git', () => {
  it('hashes paths, sizes and modification times, skipping node_modules and dot folders', async () => {
    const made = makeProject({ 'a.txt': 'a', 'sub/b.txt': 'b', 'node_modules/x/index.js': 'x', '.cache/c': 'c' });
    cleanups.push(made.remove);
    const cwd = made.dir;
    const first = await fingerprintWorkingTree(cwd);
    expect(first).toMatch(/^fs:[0-9a-f]{64}$/);
    writeFileSync(join(cwd, 'node_modules/x/index.js'), 'changed');
    writeFileSync(join(cwd, '.cache/c'), 'changed');
    expect(await fingerprintWorkingTree(cwd)).toBe(first);
    utimesSync(join(cwd, 'sub/b.txt'), new Date(2021, 0, 1), new Date(2021, 0, 1));
    expect(await fingerprintWorkingTree(cwd)).not.toBe(first);
  });
});

describe('isEvidenceFresh', { timeout: 60_000 }, () => {
  it('is true for the tree the evidence was taken on and false once it changes', async () => {
    const cwd = checkout();
    const evidence: TestEvidence = { passed: true, failed: [], ran: 3, treeFingerprint: await fingerprintWorkingTree(cwd) };
    expect(await isEvidenceFresh(evidence, { cwd })).toBe(true);
    writeFileSync(join(cwd, 'src/a.ts'), 'export const a = 2;\n');
    expect(await isEvidenceFresh(evidence, { cwd })).toBe(false);
  });

  it('is false for evidence without a fingerprint', async () => {
    const cwd = checkout();
    const noFingerprint: TestEvidence = { passed: true, failed: [], ran: 3 };
    expect(await isEvidenceFresh(noFingerprint, { cwd })).toBe(false);
    expect(await isEvidenceFresh({ treeFingerprint: '' }, { cwd })).toBe(false);
  });
});
