import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { acquireFileLock, LockTimeoutError } from '../../src/hosts/file-lock.js';
import { FAKE_CLOCK, onFakeClock, until } from './fake-clock.js';

const scratches: string[] = [];
const scratch = () => {
  const path = join(mkdtempSync(join(tmpdir(), 'stopwise-lock-')), 'state.json');
  scratches.push(dirname(path));
  return path;
};

/** A pid that is certainly not running: a child that already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('acquireFileLock', () => {
  afterEach(() => {
    vi.useRealTimers();
    for (const dir of scratches.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('is exclusive: a second holder waits until the first releases', async () => {
    const path = scratch();
    const order: string[] = [];
    const first = await acquireFileLock(path);
    const second = acquireFileLock(path).then((lock) => {
      order.push('second');
      return lock;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    order.push('first releases');
    await first.release();
    const lock = await second;
    expect(order).toEqual(['first releases', 'second']);
    await lock.release();
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('serialises read-modify-write cycles: no update is lost', async () => {
    const path = scratch();
    writeFileSync(path, '0');
    await Promise.all(
      Array.from({ length: 25 }, async () => {
        const lock = await acquireFileLock(path);
        try {
          const value = Number(readFileSync(path, 'utf8'));
          await new Promise((resolve) => setTimeout(resolve, 1));
          writeFileSync(path, String(value + 1));
        } finally {
          await lock.release();
        }
      }),
    );
    expect(readFileSync(path, 'utf8')).toBe('25');
  });

  it('takes over at once a lock whose holder on this machine no longer runs', async () => {
    const path = scratch();
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: deadPid(), host: hostname(), token: 'dead' }));
    // on a clock that stands still: taking over must need no wait at all
    vi.useFakeTimers(FAKE_CLOCK);
    const started = Date.now();
    const lock = await acquireFileLock(path, { staleMs: 60_000, timeoutMs: 5_000 });
    expect(Date.now()).toBe(started);
    expect(vi.getTimerCount()).toBe(1); // the new holder's refresh, and no back-off
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8')).pid).toBe(process.pid);
    await lock.release();
  });

  it('takes over a lock that was not refreshed for staleMs (a holder on another machine)', async () => {
    const path = scratch();
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: 1, host: 'another-machine.invalid', token: 'far' }));
    const past = new Date(Date.now() - 60_000);
    utimesSync(`${path}.lock`, past, past);
    vi.useFakeTimers(FAKE_CLOCK);
    const started = Date.now();
    const lock = await acquireFileLock(path, { staleMs: 10_000, timeoutMs: 5_000 });
    expect(Date.now()).toBe(started);
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8')).pid).toBe(process.pid);
    await lock.release();
  });

  it('does not take over a lock whose holder is alive and refreshing it, and times out', async () => {
    const path = scratch();
    vi.useFakeTimers(FAKE_CLOCK);
    const holder = await acquireFileLock(path, { staleMs: 1_000 });
    // one and a half staleMs pass, the holder refreshing the lock every third of it (each refresh lands before the
    // clock moves on, as on a machine where the file system takes no time)
    const acquired = Date.now();
    while (Date.now() - acquired < 1_500) {
      await vi.advanceTimersToNextTimerAsync();
      await until(() => Math.abs(statSync(`${path}.lock`).mtimeMs - Date.now()) < 1);
    }
    const idle = vi.getTimerCount();
    const waiting = Date.now();
    await expect(onFakeClock(acquireFileLock(path, { staleMs: 1_000, timeoutMs: 300 }), idle)).rejects.toBeInstanceOf(LockTimeoutError);
    expect(Date.now() - waiting).toBeGreaterThanOrEqual(300);
    expect(holder.compromised).toBe(false);
    expect(await holder.isHeld()).toBe(true);
    await holder.release();
  });

  it('knows when its lock was taken over, and stops refreshing it', async () => {
    const path = scratch();
    vi.useFakeTimers(FAKE_CLOCK);
    const lock = await acquireFileLock(path, { staleMs: 300 });
    expect(await lock.isHeld()).toBe(true);
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: process.pid, host: hostname(), token: 'new-holder' }));
    const past = new Date(Date.now() - 60_000);
    utimesSync(`${path}.lock`, past, past);
    // the next refresh finds the other holder's token
    await vi.advanceTimersToNextTimerAsync();
    await until(() => lock.compromised);
    // and the refreshes after it leave the other holder's lock alone
    await vi.advanceTimersByTimeAsync(300);
    expect(await lock.isHeld()).toBe(false);
    expect(statSync(`${path}.lock`).mtimeMs).toBeLessThan(Date.now() - 30_000);
    await lock.release();
    expect(existsSync(`${path}.lock`)).toBe(true);
  });

  it('never removes a lock that is no longer its own', async () => {
    const path = scratch();
    const lock = await acquireFileLock(path);
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: process.pid, host: hostname(), token: 'someone-else' }));
    await lock.release();
    expect(lock.compromised).toBe(true);
    expect(existsSync(`${path}.lock`)).toBe(true);
  });
});
