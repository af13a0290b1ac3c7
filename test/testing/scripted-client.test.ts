import { describe, expect, it } from 'vitest';
import { doneCriteria } from '../../src/decision-model/boolean-question.js';
import { decideCompletionAfterEvaluate } from '../../src/decision-model/decide-completion-after-evaluate.js';
import { DecisionModelError } from '../../src/decision-model/decision-model-error.js';
import { createScriptedClient } from '../../src/testing/scripted-client.js';

const request = (state: string) => ({ state, questions: doneCriteria });

describe('createScriptedClient', () => {
  it('uses a list call by call and records every request in order', async () => {
    const failure = new DecisionModelError('rate_limited', 'slow down');
    const client = createScriptedClient([{ acceptanceCovered: 0.2, noOpenQuestions: 0.9 }, failure, { acceptanceCovered: 0.9, noOpenQuestions: 0.9 }]);
    expect((await client.evaluate(request('one'))).answers.acceptanceCovered?.probability).toBe(0.2);
    await expect(client.evaluate(request('two'))).rejects.toBe(failure);
    const third = await client.evaluate(request('three'));
    expect(third).toEqual({ answers: { acceptanceCovered: { probability: 0.9 }, noOpenQuestions: { probability: 0.9 } }, model: 'scripted' });
    expect(client.calls.map((call) => call.state)).toEqual(['one', 'two', 'three']);
  });

  it('rejects with a configuration error naming the call when the list runs out', async () => {
    const client = createScriptedClient([{ acceptanceCovered: 1, noOpenQuestions: 1 }]);
    await client.evaluate(request('a'));
    await expect(client.evaluate(request('b'))).rejects.toMatchObject({ kind: 'configuration', message: expect.stringContaining('call 2') });
  });

  it('calls a function with the request and the call index', async () => {
    const seen: [unknown, number][] = [];
    const client = createScriptedClient(async (req, index) => {
      seen.push([req.state, index]);
      return { acceptanceCovered: index / 10, noOpenQuestions: 1 };
    }, { model: 'fake-judge' });
    await client.evaluate(request('x'));
    const second = await client.evaluate(request('y'));
    expect(seen).toEqual([['x', 0], ['y', 1]]);
    expect(second.answers.acceptanceCovered?.probability).toBe(0.1);
    expect(second.model).toBe('fake-judge');
  });

  it('validates its answers like a real client and answers only the asked questions', async () => {
    const client = createScriptedClient([
      { acceptanceCovered: 0.9 },
      { acceptanceCovered: 0.9, noOpenQuestions: 1.2 },
      { acceptanceCovered: 0.9, noOpenQuestions: 0.9, extra: 0.1 },
    ]);
    await expect(client.evaluate(request('a'))).rejects.toMatchObject({ kind: 'invalid_response' });
    await expect(client.evaluate(request('b'))).rejects.toMatchObject({ kind: 'invalid_response' });
    expect(Object.keys((await client.evaluate(request('c'))).answers)).toEqual(['acceptanceCovered', 'noOpenQuestions']);
  });

  it('rejects an aborted call and still records it', async () => {
    const client = createScriptedClient([{ acceptanceCovered: 1, noOpenQuestions: 1 }]);
    await expect(client.evaluate(request('a'), { signal: AbortSignal.abort() })).rejects.toMatchObject({ kind: 'aborted' });
    expect(client.calls).toHaveLength(1);
  });

  it('unit-tests a stop policy offline: retry on the mid band, then stop', async () => {
    const client = createScriptedClient([
      { acceptanceCovered: 0.5, noOpenQuestions: 0.9 },
      { acceptanceCovered: 0.9, noOpenQuestions: 0.9 },
    ]);
    const base = { task: 't', acceptance: ['a'], tests: { passed: true, failed: [], ran: 3 } };
    const first = await decideCompletionAfterEvaluate(client, { ...base, output: 'half', loop: { step: 1, recentFingerprints: [] } });
    const second = await decideCompletionAfterEvaluate(client, { ...base, output: 'all', loop: { step: 2, recentFingerprints: [] } });
    expect([first.action, second.action]).toEqual(['retry', 'stop_done']);
    expect(client.calls).toHaveLength(2);
  });

  it('refuses a script that is neither a list nor a function', () => {
    expect(() => createScriptedClient({} as never)).toThrow(TypeError);
  });
});
