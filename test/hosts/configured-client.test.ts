import { afterEach, describe, expect, it } from 'vitest';
import { checkCompletion } from '../../src/judge/check-completion.js';
import { isEvaluationError } from '../../src/judge/evaluation-error.js';
import { createConfiguredClient } from '../../src/hosts/configured-client.js';
import { startLoopbackDecisionModel, systemOneAnswer, type LoopbackReply } from './loopback-decision-model.js';

const input = { task: 'Paginate /users', output: 'Added pages of 50.', acceptance: ['pages of 50'], tests: { passed: true, failed: [], ran: 9 } };

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function serve(reply: (index: number) => LoopbackReply) {
  const server = await startLoopbackDecisionModel((_request, index) => reply(index));
  close = server.close;
  return server;
}

describe('createConfiguredClient', () => {
  it('makes a System One client from the configuration, with the key from the named variable', async () => {
    const server = await serve(() => systemOneAnswer({ acceptanceCovered: 0.91, noOpenQuestions: 0.8 }));
    const client = createConfiguredClient({ client: 'system-one', baseURL: server.baseURL, model: 'so-1', apiKeyEnv: 'MY_KEY', timeoutMs: 5_000 }, { MY_KEY: 'key-123' });
    if (isEvaluationError(client)) throw client;
    const checked = await checkCompletion(client, input);
    expect(checked).toMatchObject({ done: true, modelSaysDone: true, probabilities: { acceptanceCovered: 0.91, noOpenQuestions: 0.8 } });
    expect(server.requests[0]).toMatchObject({ path: '/v1/systemone', headers: { authorization: 'Bearer key-123' }, body: { model: 'so-1' } });
  });

  it('uses the hosted client from SYSTEM_ONE_* when the configuration names nothing', async () => {
    const server = await serve(() => systemOneAnswer({ acceptanceCovered: 0.5, noOpenQuestions: 0.8 }));
    const client = createConfiguredClient(
      { client: 'system-one', timeoutMs: 5_000 },
      { SYSTEM_ONE_API_KEY: 'k', SYSTEM_ONE_BASE_URL: server.baseURL, SYSTEM_ONE_MODEL: 'hosted' },
    );
    if (isEvaluationError(client)) throw client;
    expect(await checkCompletion(client, input)).toMatchObject({ modelSaysDone: false });
    expect(server.requests[0]?.body).toMatchObject({ model: 'hosted' });
  });

  it('retries a 500 once, then rejects with a server error', async () => {
    const server = await serve(() => ({ status: 500, json: { error: 'boom' } }));
    const client = createConfiguredClient({ client: 'system-one', baseURL: server.baseURL, model: 'm', timeoutMs: 5_000 }, { SYSTEM_ONE_API_KEY: 'k' });
    if (isEvaluationError(client)) throw client;
    const error = await checkCompletion(client, input).catch((caught: unknown) => caught);
    expect(isEvaluationError(error) && error.kind).toBe('server');
    expect(server.requests).toHaveLength(2);
  });

  it('names what is missing instead of making a client', () => {
    const client = createConfiguredClient({ client: 'system-one', apiKeyEnv: 'MY_KEY', timeoutMs: 5_000 }, {});
    expect(isEvaluationError(client) && client.kind).toBe('configuration');
    expect((client as Error).message).toBe(
      'the decision model is not configured: missing MY_KEY in the environment, judge.baseURL (or SYSTEM_ONE_BASE_URL), judge.model (or SYSTEM_ONE_MODEL)',
    );
    const hosted = createConfiguredClient({ client: 'system-one', timeoutMs: 5_000 }, { SYSTEM_ONE_MODEL: 'm' });
    expect((hosted as Error).message).toMatch(/SYSTEM_ONE_API_KEY, SYSTEM_ONE_BASE_URL/);
    expect(isEvaluationError(createConfiguredClient({ client: 'none', timeoutMs: 5_000 }, {}))).toBe(true);
    const unsetKey = createConfiguredClient({ client: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1', model: 'm', apiKeyEnv: 'OAI', timeoutMs: 5_000 }, {});
    expect((unsetKey as Error).message).toMatch(/missing OAI/);
  });

  it('makes a logprob client for an OpenAI-compatible server', async () => {
    const server = await serve(() => ({
      status: 200,
      json: {
        model: 'llama',
        choices: [{ logprobs: { content: [{ token: 'Yes', logprob: Math.log(0.8), top_logprobs: [{ token: 'Yes', logprob: Math.log(0.8) }, { token: 'No', logprob: Math.log(0.2) }] }] } }],
      },
    }));
    const client = createConfiguredClient({ client: 'openai-compatible', baseURL: server.baseURL, model: 'llama', timeoutMs: 5_000 }, {});
    if (isEvaluationError(client)) throw client;
    const checked = await checkCompletion(client, input);
    expect(checked.probabilities.acceptanceCovered).toBeCloseTo(0.8, 5);
    expect(server.requests.every((request) => request.path === '/v1/chat/completions')).toBe(true);
  });
});
