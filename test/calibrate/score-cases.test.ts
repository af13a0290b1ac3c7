import { describe, expect, it } from 'vitest';
import type { LabelledCase } from '../../src/calibrate/labelled-case.js';
import { scoreCacheKey, scoreCases, stopOnRepeatedFailures, type CachedScore, type ScoreCache, type ScoreProgress } from '../../src/calibrate/score-cases.js';
import { doneCriteria } from '../../src/decision-model/boolean-question.js';
import type { DecisionModelClient, DecisionModelRequest } from '../../src/decision-model/decision-model-client.js';
import { DecisionModelError } from '../../src/decision-model/decision-model-error.js';

function unscored(count: number): LabelledCase[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `c${index}`,
    task: `task ${index}`,
    output: 'x'.repeat(index),
    tests: { passed: true, failed: [], ran: 3 },
    label: index % 3 === 0 ? 'not_done' : 'done',
  }));
}

/** A client that answers after the test releases it, and records what it was asked. */
function gatedClient() {
  const requests: DecisionModelRequest[] = [];
  const waiting: (() => void)[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const client: DecisionModelClient = {
    async evaluate(request, options) {
      requests.push(request);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        await new Promise<void>((resolve, reject) => {
          waiting.push(resolve);
          options?.signal?.addEventListener('abort', () => reject(new DecisionModelError('aborted', 'aborted')), { once: true });
        });
      } finally {
        inFlight--;
      }
      const length = String((request.state as { output: string }).output).length;
      return { model: 'm', answers: { acceptanceCovered: { probability: (length % 10) / 10 }, noOpenQuestions: { probability: 0.8 } } };
    },
  };
  return {
    client,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    async releaseAll(): Promise<void> {
      while (true) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        const next = waiting.shift();
        if (next === undefined && inFlight === 0) return;
        next?.();
      }
    },
    async waitForWaiting(count: number): Promise<void> {
      while (waiting.length < count) await new Promise((resolve) => setTimeout(resolve, 1));
    },
    releaseOne(): void {
      waiting.shift()?.();
    },
  };
}

function memoryCache(): ScoreCache & { entries: Map<string, CachedScore> } {
  const entries = new Map<string, CachedScore>();
  return { entries, get: (key) => entries.get(key), set: (key, score) => void entries.set(key, score) };
}

describe('scoreCases', () => {
  it('scores only the unscored cases, in order, with bounded concurrency and progress', async () => {
    const gate = gatedClient();
    const scored: LabelledCase = { probabilities: { acceptanceCovered: 0.5 }, label: 'done' };
    const input = [scored, ...unscored(9)];
    const progress: ScoreProgress[] = [];
    const run = scoreCases(input, gate.client, { concurrency: 3, onProgress: (p) => progress.push(p) });
    await gate.releaseAll();
    const result = await run;
    expect(gate.maxInFlight).toBe(3);
    expect(gate.requests).toHaveLength(9);
    expect(gate.requests[0]?.questions).toBe(doneCriteria);
    expect(gate.requests[0]?.state).toEqual({ task: 'task 0', output: '', tests: { passed: true, failed: [], ran: 3 } });
    expect(result.cases[0]).toBe(scored);
    expect(result.cases[5]).toMatchObject({ id: 'c4', probabilities: { acceptanceCovered: 0.4, noOpenQuestions: 0.8 } });
    expect(result).toMatchObject({ scored: 9, fromCache: 0, alreadyScored: 1, failures: [], aborted: false });
    expect(progress.map((p) => p.completed)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(progress.at(-1)).toEqual({ total: 9, completed: 9, fromCache: 0, failed: 0 });
  });

  it('takes cached answers instead of asking again', async () => {
    const cache = memoryCache();
    const first = gatedClient();
    const run = scoreCases(unscored(4), first.client, { cache, cacheNamespace: 'model-a' });
    await first.releaseAll();
    await run;
    expect(cache.entries.size).toBe(4);
    const second = gatedClient();
    const again = await scoreCases(unscored(4), second.client, { cache, cacheNamespace: 'model-a' });
    expect(second.requests).toHaveLength(0);
    expect(again.fromCache).toBe(4);
    // Another namespace (another model) does not reuse the answers.
    const third = gatedClient();
    const other = scoreCases(unscored(4), third.client, { cache, cacheNamespace: 'model-b' });
    await third.releaseAll();
    await other;
    expect(third.requests).toHaveLength(4);
  });

  it('reports failures without inventing probabilities, and keeps going', async () => {
    let call = 0;
    const client: DecisionModelClient = {
      async evaluate() {
        call++;
        if (call === 2) throw new DecisionModelError('rate_limited', 'slow down', { status: 429 });
        if (call === 3) return { model: 'm', answers: { acceptanceCovered: { probability: 1.4 }, noOpenQuestions: { probability: 0.5 } } };
        return { model: 'm', answers: { acceptanceCovered: { probability: 0.7 }, noOpenQuestions: { probability: 0.5 } } };
      },
    };
    const cache = memoryCache();
    const result = await scoreCases(unscored(4), client, { concurrency: 1, cache });
    expect(result.scored).toBe(2);
    expect(result.failures).toEqual([
      { index: 1, id: 'c1', message: 'slow down', kind: 'rate_limited' },
      {
        index: 2,
        id: 'c2',
        kind: 'invalid_response',
        message: 'the decision model answered "acceptanceCovered" with 1.4; expected a probability, a finite number in [0, 1]',
      },
    ]);
    expect(result.cases[1]?.probabilities).toBeUndefined();
    expect(result.cases[2]?.probabilities).toBeUndefined();
    expect(cache.entries.size).toBe(2);
  });

  it('stops on abort, keeping what was answered', async () => {
    const gate = gatedClient();
    const controller = new AbortController();
    const cache = memoryCache();
    const run = scoreCases(unscored(6), gate.client, { concurrency: 2, cache, signal: controller.signal });
    await gate.waitForWaiting(2);
    gate.releaseOne();
    await gate.waitForWaiting(2);
    controller.abort();
    const result = await run;
    expect(result.aborted).toBe(true);
    expect(result.scored).toBe(1);
    expect(result.failures).toEqual([]);
    expect(cache.entries.size).toBe(1);
    expect(gate.requests).toHaveLength(3);
  });

  it('stops when stopWhen says so: no new case is started and the requests in flight are aborted', async () => {
    const asked: string[] = [];
    let aborts = 0;
    const client: DecisionModelClient = {
      async evaluate(request, options) {
        const task = String((request.state as { task: string }).task);
        asked.push(task);
        if (task === 'task 0') return { model: 'm', answers: { acceptanceCovered: { probability: 0.9 }, noOpenQuestions: { probability: 0.9 } } };
        if (task === 'task 3') {
          // Still in flight when the run stops.
          return new Promise((_resolve, reject) =>
            options?.signal?.addEventListener('abort', () => {
              aborts++;
              reject(new DecisionModelError('aborted', 'aborted'));
            }),
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
        throw new DecisionModelError('server', `boom ${task}`, { status: 503 });
      },
    };
    const seen: [number, number][] = [];
    const result = await scoreCases(unscored(10), client, {
      concurrency: 2,
      stopWhen: (failure, inRow) => {
        seen.push([failure.index, inRow]);
        return inRow >= 3;
      },
    });
    expect(seen).toEqual([
      [1, 1],
      [2, 2],
      [4, 3],
    ]);
    expect(result.stoppedBy).toEqual({ index: 4, id: 'c4', message: 'boom task 4', kind: 'server' });
    expect(result.failures.map((failure) => failure.index)).toEqual([1, 2, 4]);
    expect(result.aborted).toBe(false);
    expect(result.scored).toBe(1);
    expect(aborts).toBe(1);
    expect(asked).toEqual(['task 0', 'task 1', 'task 2', 'task 3', 'task 4']);
    expect(result.cases.filter((labelled) => labelled.probabilities === undefined)).toHaveLength(9);
  });

  it('counts failures in a row from the last answer', async () => {
    const outcomes = ['fail', 'fail', 'ok', 'fail', 'fail', 'fail', 'ok'];
    let call = 0;
    const client: DecisionModelClient = {
      async evaluate() {
        const outcome = outcomes[call++];
        if (outcome === 'fail') throw new DecisionModelError('network', 'unreachable');
        return { model: 'm', answers: { acceptanceCovered: { probability: 0.5 }, noOpenQuestions: { probability: 0.5 } } };
      },
    };
    const rows: number[] = [];
    const result = await scoreCases(unscored(7), client, { concurrency: 1, stopWhen: (_failure, inRow) => (rows.push(inRow), false) });
    expect(rows).toEqual([1, 2, 1, 2, 3]);
    expect(result.stoppedBy).toBeUndefined();
    expect(result.scored).toBe(2);
  });

  it('stopOnRepeatedFailures stops at the first auth or configuration error, or after a run of failures', () => {
    const stop = stopOnRepeatedFailures(3);
    expect(stop({ index: 0, message: 'm', kind: 'auth' }, 1)).toBe(true);
    expect(stop({ index: 0, message: 'm', kind: 'configuration' }, 1)).toBe(true);
    expect(stop({ index: 0, message: 'm', kind: 'server' }, 2)).toBe(false);
    expect(stop({ index: 0, message: 'm', kind: 'server' }, 3)).toBe(true);
    expect(stop({ index: 0, message: 'not a probability' }, 1)).toBe(false);
    expect(stopOnRepeatedFailures()({ index: 0, message: 'm', kind: 'timeout' }, 4)).toBe(false);
    expect(stopOnRepeatedFailures()({ index: 0, message: 'm', kind: 'timeout' }, 5)).toBe(true);
    expect(() => stopOnRepeatedFailures(0)).toThrow(RangeError);
  });

  it('lets many requests in flight listen to the signal without a listener warning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const client: DecisionModelClient = {
        async evaluate(_request, options) {
          // Like the HTTP clients: a listener per request (and per attempt) on the caller's signal.
          const listeners = [() => undefined, () => undefined];
          for (const listener of listeners) options?.signal?.addEventListener('abort', listener);
          await new Promise((resolve) => setTimeout(resolve, 10));
          for (const listener of listeners) options?.signal?.removeEventListener('abort', listener);
          return { model: 'm', answers: { acceptanceCovered: { probability: 0.6 }, noOpenQuestions: { probability: 0.6 } } };
        },
      };
      const result = await scoreCases(unscored(40), client, { concurrency: 20, signal: new AbortController().signal });
      expect(result.scored).toBe(40);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(warnings.map((warning) => warning.name)).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('keys the cache on the namespace, state and questions, not on key order', () => {
    const a = scoreCacheKey('n', { task: 't', output: 'o' }, doneCriteria);
    expect(scoreCacheKey('n', { output: 'o', task: 't' }, doneCriteria)).toBe(a);
    expect(scoreCacheKey('m', { task: 't', output: 'o' }, doneCriteria)).not.toBe(a);
    expect(scoreCacheKey('n', { task: 't', output: 'p' }, doneCriteria)).not.toBe(a);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });

  it('rejects a bad concurrency and empty questions', async () => {
    const gate = gatedClient();
    await expect(scoreCases(unscored(1), gate.client, { concurrency: 0 })).rejects.toThrow(RangeError);
    await expect(scoreCases(unscored(1), gate.client, { questions: {} })).rejects.toThrow(RangeError);
  });
});
