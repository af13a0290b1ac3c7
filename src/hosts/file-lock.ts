import { open, readFile, stat, unlink, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import { formatDuration } from '../core/format-duration.js';
import { uniqueToken } from './unique-token.js';

/** A held lock; `release` gives it up (only if it is still ours). */
export interface FileLock {
  readonly path: string;
  /** True once this holder has seen that another process took the lock over. */
  readonly compromised: boolean;
  /** Reads the lock file: true while it is still this holder's (after a takeover, `compromised` turns true). */
  isHeld(): Promise<boolean>;
  release(): Promise<void>;
}

/** Options of {@link acquireFileLock}. */
export interface FileLockOptions {
  /** A lock whose file was not refreshed for this long is taken over (default 10 s; the holder refreshes it every third of that). */
  readonly staleMs?: number;
  /** How long to wait for the lock before giving up (default 30 s). */
  readonly timeoutMs?: number;
}

/** The lock could not be had within the timeout. */
export class LockTimeoutError extends Error {
  override readonly name = 'LockTimeoutError';
}

interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly token: string;
}

const TAKEOVER_STALE_MS = 2_000;

/**
 * Takes an exclusive lock on `path` (a `path.lock` file created with `wx`),
 * waiting with a short jittered back-off while another process holds it. A
 * lock is stale, and taken over, when its holder on this machine no longer
 * runs, or when its file has not been refreshed for `staleMs` (a holder on a
 * frozen or other machine). Taking over goes through a second short-lived
 * lock, so two waiters never both remove a lock, nor a fresh one.
 */
export async function acquireFileLock(path: string, options: FileLockOptions = {}): Promise<FileLock> {
  const staleMs = options.staleMs ?? 10_000;
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const lockPath = `${path}.lock`;
  const owner: LockOwner = { pid: process.pid, host: hostname(), token: uniqueToken() };
  let delay = 5;
  for (;;) {
    if (await tryCreate(lockPath, owner)) return holdLock(lockPath, owner, staleMs);
    if (await isStale(lockPath, staleMs)) {
      await removeStaleLock(lockPath, staleMs);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new LockTimeoutError(`another process held ${lockPath} for longer than ${formatDuration(options.timeoutMs ?? 30_000)}`);
    }
    await sleep(delay + Math.random() * delay);
    delay = Math.min(delay * 2, 100);
  }
}

async function tryCreate(lockPath: string, owner: LockOwner): Promise<boolean> {
  let handle;
  try {
    handle = await open(lockPath, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(JSON.stringify(owner));
  } finally {
    await handle.close();
  }
  return true;
}

function holdLock(lockPath: string, owner: LockOwner, staleMs: number): FileLock {
  let compromised = false;
  const isHeld = async (): Promise<boolean> => {
    if (compromised) return false;
    const current = await readOwner(lockPath);
    if (current?.token !== owner.token) compromised = true;
    return !compromised;
  };
  // Refreshes only a lock that is still ours: refreshing a new holder's lock would hide that ours was taken over.
  const timer = setInterval(() => {
    void isHeld().then((held) => {
      if (!held) return;
      const now = new Date();
      utimes(lockPath, now, now).catch(() => {
        compromised = true;
      });
    });
  }, Math.max(50, Math.floor(staleMs / 3)));
  timer.unref();
  return {
    path: lockPath,
    get compromised() {
      return compromised;
    },
    isHeld,
    async release() {
      clearInterval(timer);
      if (await isHeld()) await unlink(lockPath).catch(() => undefined);
    },
  };
}

async function isStale(lockPath: string, staleMs: number): Promise<boolean> {
  let mtimeMs: number;
  try {
    mtimeMs = (await stat(lockPath)).mtimeMs;
  } catch {
    return false;
  }
  if (Date.now() - mtimeMs > staleMs) return true;
  const current = await readOwner(lockPath);
  return current !== undefined && current.host === hostname() && !isRunning(current.pid);
}

async function removeStaleLock(lockPath: string, staleMs: number): Promise<void> {
  const takeover = `${lockPath}.takeover`;
  let handle;
  try {
    handle = await open(takeover, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const age = await stat(takeover).then((info) => Date.now() - info.mtimeMs, () => 0);
    if (age > TAKEOVER_STALE_MS) await unlink(takeover).catch(() => undefined);
    else await sleep(5);
    return;
  }
  await handle.close();
  try {
    if (await isStale(lockPath, staleMs)) await unlink(lockPath).catch(() => undefined);
  } finally {
    await unlink(takeover).catch(() => undefined);
  }
}

async function readOwner(lockPath: string): Promise<LockOwner | undefined> {
  try {
    const value = JSON.parse(await readFile(lockPath, 'utf8')) as Partial<LockOwner>;
    if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.token === 'string') {
      return { pid: value.pid, host: value.host, token: value.token };
    }
  } catch {
    // a lock being written, or garbage: only its age can make it stale
  }
  return undefined;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
