import { describe, expect, it } from 'vitest';
import { mapWithConcurrency } from '../../../src/decision-model/openai-compatible/map-with-concurrency.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('mapWithConcurrency', () => {
  it('keeps the order of results and at most `limit` tasks in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const results = await mapWithConcurrency([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await tick();
      inFlight -= 1;
      return n * 10;
    });
    expect(results).toEqual([10, 20, 30, 40, 50, 60, 70]);
    expect(most).toBe(3);
  });

  it('rejects with the first failure, aborts the others and starts no new task', async () => {
    const started: number[] = [];
    const aborted: number[] = [];
    const error = await mapWithConcurrency([1, 2, 3, 4, 5], 2, async (n, signal) => {
      started.push(n);
      if (n === 1) throw new Error('first failure');
      await new Promise<void>((resolve) => {
        signal.addEventListener('abort', () => {
          aborted.push(n);
          resolve();
        });
      });
      throw new Error(`aborted ${n}`);
    }).catch((caught: unknown) => caught);
    expect((error as Error).message).toBe('first failure');
    expect(started).toEqual([1, 2]);
    expect(aborted).toEqual([2]);
  });

  it('passes an outer abort to every task', async () => {
    const controller = new AbortController();
    const pending = mapWithConcurrency([1, 2], 2, (_n, signal) =>
      new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('stopped')))),
    controller.signal);
    controller.abort();
    await expect(pending).rejects.toThrow('stopped');
  });
});
