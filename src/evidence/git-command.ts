import { execFile } from 'node:child_process';
import { lstat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/** What a git command printed, or why it failed. */
export type GitOutput = { readonly ok: true; readonly stdout: string } | { readonly ok: false; readonly message: string };

/**
 * Runs `git` with `args` in `cwd` without a shell. Optional locks are off, so
 * reading the status never competes with the user's own git commands.
 */
export function runGit(args: readonly string[], cwd: string): Promise<GitOutput> {
  return new Promise((resolve) => {
    execFile(
      'git',
      [...args],
      { cwd, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' }, maxBuffer: 256 * 1024 * 1024, windowsHide: true },
      (error, stdout, stderr) => {
        if (error === null) resolve({ ok: true, stdout });
        else resolve({ ok: false, message: (stderr.trim() || error.message).split('\n')[0] ?? error.message });
      },
    );
  });
}

/** One entry of `git status --porcelain=v1 -z`: the two status letters and the path from the top of the checkout. */
export interface GitStatusEntry {
  readonly status: string;
  readonly path: string;
}

/** The changed and untracked, non-ignored files of the checkout around `cwd`, or why they could not be listed. */
export async function gitStatus(cwd: string): Promise<{ ok: true; top: string; entries: GitStatusEntry[] } | { ok: false; message: string }> {
  const [top, status] = await Promise.all([
    runGit(['rev-parse', '--show-toplevel'], cwd),
    runGit(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames'], cwd),
  ]);
  if (!top.ok) return top;
  if (!status.ok) return status;
  const entries = status.stdout
    .split('\0')
    .filter((entry) => entry.length > 3)
    .map((entry) => ({ status: entry.slice(0, 2), path: entry.slice(3) }));
  return { ok: true, top: top.stdout.trim(), entries };
}

/**
 * Whether `cwd` can be inside a git checkout: some folder from `cwd` up holds
 * a `.git` entry (a folder, or the file of a linked worktree or submodule), or
 * `GIT_DIR` names the repository. When it is false, git would only say "not a
 * git repository", so callers can skip starting it.
 */
export async function mayBeInGitCheckout(cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  if (env.GIT_DIR !== undefined && env.GIT_DIR !== '') return true;
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    try {
      await lstat(join(dir, '.git'));
      return true;
    } catch {
      // not here: look in the parent
    }
    if (dirname(dir) === dir) return false;
  }
}
