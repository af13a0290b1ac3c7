import { describe, expect, it } from 'vitest';
import { raceAbort } from '../../../src/decision-model/http/race-abort.js';

describe('raceAbort', () => {
  it('settles like the promise when nothing aborts', async () => {
    const signal = new AbortController().signal;
    await expect(raceAbort(Promise.resolve(3), signal)).resolves.toBe(3);
    await expect(raceAbort(Promise.reject(new Error('x')), signal)).rejects.toThrow('x');
  });

  it('rejects with the abort reason when the promise never settles', async () => {
    const controller = new AbortController();
    const pending = raceAbort(new Promise(() => undefined), controller.signal);
    controller.abort(new Error('timed out'));
    await expect(pending).rejects.toThrow('timed out');
  });

  it('rejects at once for an already aborted signal', async () => {
    await expect(raceAbort(Promise.resolve(1), AbortSignal.abort(new Error('before')))).rejects.toThrow('before');
  });
});
