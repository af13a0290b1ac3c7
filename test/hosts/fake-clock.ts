import { setImmediate as turn } from 'node:timers/promises';
import { vi } from 'vitest';

/** The timers and the clock that the lock and the hook's deadline read. */
export const FAKE_CLOCK: Parameters<typeof vi.useFakeTimers>[0] = { toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] };

/** Lets real I/O run, without moving the fake clock, until `check` holds. */
export async function until(check: () => boolean): Promise<void> {
  while (!check()) await turn();
}

/** A promise whose settling can be looked at without waiting for it. */
export function watch<T>(work: Promise<T>): { readonly result: Promise<T>; readonly settled: boolean } {
  let settled = false;
  const result = work.finally(() => {
    settled = true;
  });
  // a rejection is the caller's to await, not an unhandled one while it is being watched
  result.catch(() => undefined);
  return {
    result,
    get settled() {
      return settled;
    },
  };
}

/**
 * Settles `work` under fake timers as if I/O took no time: whenever more timers are pending than the `idle` ones
 * that were pending before it started (the work sleeps), the clock jumps to the next timer; otherwise the work waits
 * for real I/O, which is let run with the clock standing.
 */
export async function onFakeClock<T>(work: Promise<T>, idle: number): Promise<T> {
  const watched = watch(work);
  while (!watched.settled) {
    if (vi.getTimerCount() > idle) await vi.advanceTimersToNextTimerAsync();
    else await turn();
  }
  return watched.result;
}
