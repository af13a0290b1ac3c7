import { describe, expect, it } from 'vitest';
import { doneCriteria } from '../../src/decision-model/boolean-question.js';
import { createCachedClient } from '../../src/decision-model/cached-client.js';
import { checkCompletion } from '../../src/decision-model/check-completion.js';
import type { DecisionModelClient } from '../../src/decision-model/decision-model-client.js';
import { DecisionModelError } from '../../src/decision-model/decision-model-error.js';
import { createScriptedClient } from '../../src/testing/scripted-client.js';

const answerAll = (p: number) => ({ acceptanceCovered: p, noOpenQuestions: p });
const INPUT = {
  task: 'Cache the config file',
  output: 'Read once, cached in memory.',
  acceptance: ['the file is read once'],
  tests: { passed: true, failed: [], ran: 4 },
};

describe('createCachedClient', () => {
  it('answers an identical request from the cache: a hook re-run on the same output pays once', async () => {
    const inner = createScriptedClient(() => answerAll(0.9));
    const client = createCachedClient(inner, { maxEntries: 4 });
    const first = await checkCompletion(client, INPUT);
    const second = await checkCompletion(client, { ...INPUT, acceptance: [...INPUT.acceptance] });
    expect(second).toEqual(first);
    expect(inner.calls).toHaveLength(1);
    expect({ hits: client.hits, misses: client.misses, size: client.size }).toEqual({ hits: 1, misses: 1, size: 1 });
  });

  it('ignores key order but not content', async () => {
    const inner = createScriptedClient(() => answerAll(0.9));
    const client = createCachedClient(inner, { maxEntries: 4 });
    await client.evaluate({ state: { a: 1, b: [1, 2] }, questions: doneCriteria });
    await client.evaluate({ state: { b: [1, 2], a: 1 }, questions: doneCriteria });
    await client.evaluate({ state: { a: 1, b: [2, 1] }, questions: doneCriteria });
    await client.evaluate({ state: { a: 1, b: [1, 2] }, questions: { acceptanceCovered: doneCriteria.acceptanceCovered! } });
    expect(inner.calls).toHaveLength(3);
  });

  it('stays within maxEntries, dropping the least recently used', async () => {
    const inner = createScriptedClient(() => answerAll(0.9));
    const client = createCachedClient(inner, { maxEntries: 2 });
    const ask = (state: string) => client.evaluate({ state, questions: doneCriteria });
    await ask('a');
    await ask('b');
    await ask('a');
    await ask('c');
    expect(client.size).toBe(2);
    await ask('a');
    expect(inner.calls).toHaveLength(3);
    await ask('b');
    expect(inner.calls).toHaveLength(4);
    for (let i = 0; i < 100; i++) await ask(`s${i}`);
    expect(client.size).toBe(2);
  });

  it('never caches an error or an invalid answer', async () => {
    const inner = createScriptedClient([
      new DecisionModelError('server', 'down'),
      { acceptanceCovered: 1.5, noOpenQuestions: 0.9 },
      answerAll(0.8),
    ]);
    const client = createCachedClient(inner, { maxEntries: 4 });
    const request = { state: 's', questions: doneCriteria };
    await expect(client.evaluate(request)).rejects.toMatchObject({ kind: 'server' });
    await expect(client.evaluate(request)).rejects.toMatchObject({ kind: 'invalid_response' });
    expect(client.size).toBe(0);
    expect((await client.evaluate(request)).answers.acceptanceCovered?.probability).toBe(0.8);
    expect((await client.evaluate(request)).answers.acceptanceCovered?.probability).toBe(0.8);
    expect(inner.calls).toHaveLength(3);
  });

  it('checks a hand-written client before caching, and hands out frozen answers', async () => {
    const sloppy: DecisionModelClient = {
      evaluate: async () => ({ answers: { acceptanceCovered: { probability: 0.7 }, noOpenQuestions: { probability: 0.6 } }, model: 'x' }),
    };
    const client = createCachedClient(sloppy, { maxEntries: 1 });
    const result = await client.evaluate({ state: 's', questions: doneCriteria });
    expect(Object.isFrozen(result.answers)).toBe(true);
    expect(() => {
      (result.answers.acceptanceCovered as { probability: number }).probability = 1;
    }).toThrow(TypeError);
    client.clear();
    expect(client.size).toBe(0);
  });

  it('refuses a missing or non-positive bound', () => {
    const inner = createScriptedClient([]);
    for (const maxEntries of [0, -1, 1.5, Number.NaN, undefined]) {
      expect(() => createCachedClient(inner, { maxEntries } as never)).toThrow(TypeError);
    }
  });
});
