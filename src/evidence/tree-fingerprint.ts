import { createHash, randomUUID, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { gitStatus, mayBeInGitCheckout, runGit } from './git-command.js';

/** Files walked at most outside a git checkout; a larger tree gets a fingerprint that never matches. */
export const MAX_FINGERPRINT_FILES = 100_000;

/**
 * A fingerprint of the working tree around `cwd`. In a git checkout: a
 * SHA-256 over the commit checked out, then every changed tracked file and
 * every untracked, non-ignored file (status, path and content), prefixed
 * `git:`. Outside git: a SHA-256 over the path, size and modification time of
 * every file under `cwd`, skipping `node_modules` and folders whose name
 * starts with a dot, prefixed `fs:`; a tree of more than
 * 100,000 files gets a fingerprint that matches nothing.
 *
 * @example
 * const before = await fingerprintWorkingTree(process.cwd());
 */
export async function fingerprintWorkingTree(cwd: string): Promise<string> {
  if (!(await mayBeInGitCheckout(cwd))) return fingerprintFiles(cwd);
  // The commit checked out is asked for alongside the status: two git processes at once, not one after the other.
  const [status, head] = await Promise.all([gitStatus(cwd), runGit(['rev-parse', '--verify', '--quiet', 'HEAD'], cwd)]);
  if (!status.ok) return fingerprintFiles(cwd);
  const hash = createHash('sha256');
  hash.update(`head\0${head.ok ? head.stdout.trim() : 'unborn'}\0`);
  const entries = [...status.entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const entry of entries) {
    hash.update(`${entry.status}\0${entry.path}\0`);
    await hashFile(hash, join(status.top, entry.path));
  }
  return `git:${hash.digest('hex')}`;
}

/**
 * Whether the working tree around `cwd` is still the one the evidence was
 * taken on: false when the evidence carries no `treeFingerprint`, when the
 * tree changed since, or when the tree cannot be read.
 *
 * @example
 * if (!(await isEvidenceFresh(lastRun, { cwd }))) lastRun = await runTests(config);
 */
export async function isEvidenceFresh(evidence: { readonly treeFingerprint?: string }, options: { readonly cwd: string }): Promise<boolean> {
  if (typeof evidence.treeFingerprint !== 'string' || evidence.treeFingerprint === '') return false;
  try {
    return (await fingerprintWorkingTree(options.cwd)) === evidence.treeFingerprint;
  } catch {
    return false;
  }
}

async function hashFile(hash: Hash, path: string): Promise<void> {
  let info;
  try {
    info = await lstat(path);
  } catch {
    hash.update('missing\0');
    return;
  }
  if (info.isSymbolicLink()) {
    hash.update(`link\0${info.size}\0`);
    return;
  }
  if (!info.isFile()) {
    hash.update(`other\0${info.mtimeMs}\0`);
    return;
  }
  hash.update(`file\0${info.size}\0`);
  try {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  } catch {
    hash.update('unreadable\0');
  }
  hash.update('\0');
}

async function fingerprintFiles(cwd: string): Promise<string> {
  const hash = createHash('sha256');
  const pending = [cwd];
  const files: string[] = [];
  while (pending.length > 0) {
    const folder = pending.pop() as string;
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      files.push(`${relative(cwd, folder)}\0unreadable`);
      continue;
    }
    for (const entry of entries) {
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) pending.push(join(folder, entry.name));
        continue;
      }
      const path = join(folder, entry.name);
      try {
        const info = await lstat(path);
        files.push(`${relative(cwd, path)}\0${info.size}\0${info.mtimeMs}`);
      } catch {
        files.push(`${relative(cwd, path)}\0gone`);
      }
      if (files.length > MAX_FINGERPRINT_FILES) return `fs:too-many-files:${randomUUID()}`;
    }
  }
  files.sort();
  for (const file of files) hash.update(`${file}\n`);
  return `fs:${hash.digest('hex')}`;
}
