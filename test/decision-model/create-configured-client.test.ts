import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { doneCriteria } from '../../src/decision-model/boolean-question.js';
import { createConfiguredClient, type DecisionModelConfig } from '../../src/decision-model/create-configured-client.js';
import { DecisionModelError } from '../../src/decision-model/decision-model-error.js';
import { rejection } from './caught-errors.js';
import { chatBody, send, startLoopbackServer, systemOneBody, type LoopbackServer } from './loopback-server.js';

const KEY = 'so-configured-7c41e0d9b2';

describe('createConfiguredClient: system-one', () => {
  let server: LoopbackServer;
  beforeEach(async () => {
    server = await startLoopbackServer((_request, response) =>
      send(response, 200, systemOneBody({ acceptanceCovered: 0.82, noOpenQuestions: 0.4 })),
    );
  });
  afterEach(() => server.close());

  it('reads the key, base URL and model from the SYSTEM_ONE_* variables', async () => {
    const env = { SYSTEM_ONE_API_KEY: KEY, SYSTEM_ONE_BASE_URL: server.baseURL, SYSTEM_ONE_MODEL: 'judge-small' };
    const client = await createConfiguredClient({ client: 'system-one' }, { env });
    expect(client).toMatchObject({ client: 'system-one', model: 'judge-small', baseURL: server.baseURL });
    const result = await client.evaluate({ state: { task: 't' }, questions: doneCriteria });
    expect(result.answers).toEqual({ acceptanceCovered: { probability: 0.82 }, noOpenQuestions: { probability: 0.4 } });
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v1/systemone' });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.requests[0]?.json).toMatchObject({ model: 'judge-small', state: { task: 't' } });
  });

  it('lets the configuration override the base URL and model, and name another key variable', async () => {
    const env = { TEAM_JUDGE_KEY: KEY, SYSTEM_ONE_BASE_URL: 'http://127.0.0.1:9/nowhere', SYSTEM_ONE_MODEL: 'judge-large' };
    const client = await createConfiguredClient(
      { client: 'system-one', baseURL: `${server.baseURL}/`, model: 'judge-small', apiKeyEnv: 'TEAM_JUDGE_KEY' },
      { env },
    );
    expect(client.baseURL).toBe(server.baseURL);
    await client.evaluate({ state: 's', questions: doneCriteria });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.requests[0]?.json).toMatchObject({ model: 'judge-small' });
  });

  it('applies timeoutMs to each attempt', async () => {
    server.handle = () => undefined; // never answers
    const env = { SYSTEM_ONE_API_KEY: KEY, SYSTEM_ONE_BASE_URL: server.baseURL, SYSTEM_ONE_MODEL: 'm' };
    const client = await createConfiguredClient({ client: 'system-one', timeoutMs: 50 }, { env, http: { maxRetries: 0 } });
    const error = await rejection(client.evaluate({ state: 's', questions: doneCriteria }));
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('within 50 ms');
  });

  it('names every missing setting at once, in the caller\'s words, and sends nothing', async () => {
    const error = await rejection(
      createConfiguredClient(
        { client: 'system-one' },
        { env: { SYSTEM_ONE_MODEL: 'm' }, settingNames: { baseURL: '--base-url', model: '--model' } },
      ),
    );
    expect(error.kind).toBe('configuration');
    expect(error.message).toBe(
      'the system-one decision model needs: the key (SYSTEM_ONE_API_KEY in the environment); the base URL (--base-url, or SYSTEM_ONE_BASE_URL in the environment)',
    );
    const named = await rejection(
      createConfiguredClient({ client: 'system-one', apiKeyEnv: 'TEAM_JUDGE_KEY', baseURL: server.baseURL, model: 'm' }, { env: { TEAM_JUDGE_KEY: '  ' } }),
    );
    expect(named.message).toBe('the system-one decision model needs: the key (TEAM_JUDGE_KEY in the environment, named by apiKeyEnv)');
    expect(server.requests).toHaveLength(0);
  });

  it('keeps the key out of the client object', async () => {
    const env = { SYSTEM_ONE_API_KEY: KEY, SYSTEM_ONE_BASE_URL: server.baseURL, SYSTEM_ONE_MODEL: 'm' };
    const client = await createConfiguredClient({ client: 'system-one' }, { env });
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(KEY);
    expect(JSON.stringify(client)).not.toContain(KEY);
  });
});

describe('createConfiguredClient: openai-compatible', () => {
  let server: LoopbackServer;
  beforeEach(async () => {
    server = await startLoopbackServer((_request, response) => send(response, 200, chatBody(0.7)));
  });
  afterEach(() => server.close());

  it('needs no key, and sends none when OPENAI_API_KEY is not set', async () => {
    const client = await createConfiguredClient({ client: 'openai-compatible', baseURL: server.baseURL, model: 'qwen2.5-7b' }, { env: {} });
    expect(client).toMatchObject({ client: 'openai-compatible', model: 'qwen2.5-7b', baseURL: server.baseURL });
    const result = await client.evaluate({ state: 's', questions: doneCriteria });
    expect(result.answers.acceptanceCovered?.probability).toBeCloseTo(0.7, 10);
    expect(server.requests).toHaveLength(2);
    expect(server.requests.every((request) => request.path === '/v1/chat/completions')).toBe(true);
    expect(server.requests.every((request) => request.headers.authorization === undefined)).toBe(true);
  });

  it('sends the key from OPENAI_API_KEY, or from the variable apiKeyEnv names', async () => {
    const config: DecisionModelConfig = { client: 'openai-compatible', baseURL: server.baseURL, model: 'm' };
    await (await createConfiguredClient(config, { env: { OPENAI_API_KEY: KEY } })).evaluate({ state: 's', questions: doneCriteria });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    await (
      await createConfiguredClient({ ...config, apiKeyEnv: 'LOCAL_KEY' }, { env: { OPENAI_API_KEY: 'other', LOCAL_KEY: `${KEY}-2` } })
    ).evaluate({ state: 's', questions: doneCriteria });
    expect(server.requests[2]?.headers.authorization).toBe(`Bearer ${KEY}-2`);
  });

  it('needs the base URL and the model, and a named key variable to be set', async () => {
    const error = await rejection(
      createConfiguredClient(
        { client: 'openai-compatible', apiKeyEnv: 'LOCAL_KEY' },
        { env: {}, settingNames: { baseURL: '--base-url', model: '--model', apiKeyEnv: '--api-key-env' } },
      ),
    );
    expect(error.kind).toBe('configuration');
    expect(error.message).toBe(
      'the openai-compatible decision model needs: the base URL (--base-url); the model (--model); the key (LOCAL_KEY in the environment, named by --api-key-env)',
    );
  });
});

describe('createConfiguredClient: untrusted configuration', () => {
  it.each([
    ['not an object', null, 'must be an object'],
    ['an unknown client', { client: 'gpt' }, 'client must be one of "system-one", "openai-compatible", "ai-sdk", got "gpt"'],
    ['no client', {}, 'got undefined'],
    ['a model that is not a string', { client: 'openai-compatible', baseURL: 'http://127.0.0.1:1/v1', model: 7 }, 'model must be a string, got number'],
    ['a zero timeout', { client: 'openai-compatible', baseURL: 'http://127.0.0.1:1/v1', model: 'm', timeoutMs: 0 }, 'timeoutMs must be a positive number'],
    ['a bad base URL', { client: 'openai-compatible', baseURL: 'ftp://example.com', model: 'm' }, 'baseURL must use http or https'],
  ])('refuses %s with a configuration error', async (_name, config, message) => {
    const error = await rejection(createConfiguredClient(config as DecisionModelConfig, { env: {} }));
    expect(error.kind).toBe('configuration');
    expect(error.message).toContain(message);
  });

  it('never echoes a key pasted where the variable name belongs', async () => {
    const pasted = 'sk-live-5f0e9a1c7b3d2e8f';
    const error = await rejection(
      createConfiguredClient({ client: 'openai-compatible', baseURL: 'http://127.0.0.1:1/v1', model: 'm', apiKeyEnv: pasted }, { env: {} }),
    );
    expect(error.kind).toBe('configuration');
    expect(error.message).toContain('apiKeyEnv must be the name of an environment variable');
    expect(inspect(error, { depth: 10 })).not.toContain(pasted.slice(0, 8));
    expect(JSON.stringify(error)).not.toContain(pasted.slice(0, 8));
  });
});

describe('createConfiguredClient: ai-sdk', () => {
  it('needs the model id, and says AI SDK 7 is needed where the installed ai is 6', async () => {
    const noModel = await createConfiguredClient({ client: 'ai-sdk' }).then(() => undefined, (caught: unknown) => caught);
    expect(DecisionModelError.isInstance(noModel) && noModel.kind).toBe('configuration');
    expect((noModel as Error).message).toContain("the model (model: an id the AI SDK's default provider resolves)");
    const onAi6 = await createConfiguredClient({ client: 'ai-sdk', model: 'judge-1' }).then(() => undefined, (caught: unknown) => caught);
    expect(DecisionModelError.isInstance(onAi6) && onAi6.kind).toBe('configuration');
    expect((onAi6 as Error).message).toMatch(/needs AI SDK 7/);
  });
});
