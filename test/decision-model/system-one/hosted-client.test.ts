import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { doneCriteria } from '../../../src/decision-model/boolean-question.js';
import { isDecisionModelError } from '../../../src/decision-model/decision-model-error.js';
import { createHostedClient } from '../../../src/decision-model/system-one/hosted-client.js';
import { thrown } from '../caught-errors.js';
import { send, startLoopbackServer, systemOneBody, type LoopbackServer } from '../loopback-server.js';

function configurationMessage(env: Record<string, string | undefined>): string {
  const error = thrown(() => createHostedClient(env));
  if (isDecisionModelError(error) && error.kind === 'configuration') return error.message;
  throw new Error(`expected a configuration error, got ${String(error)}`);
}

describe('createHostedClient', () => {
  let server: LoopbackServer;
  beforeEach(async () => {
    server = await startLoopbackServer((_request, response) => send(response, 200, systemOneBody({ acceptanceCovered: 0.6, noOpenQuestions: 0.9 })));
  });
  afterEach(() => server.close());

  it('reads the key, the base URL and the model from the environment', async () => {
    const client = createHostedClient({ SYSTEM_ONE_API_KEY: ' hosted-key ', SYSTEM_ONE_BASE_URL: server.baseURL, SYSTEM_ONE_MODEL: 'judge-small' });
    expect(client.model).toBe('judge-small');
    const result = await client.evaluate({ state: 's', questions: doneCriteria });
    expect(result.answers.acceptanceCovered?.probability).toBe(0.6);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer hosted-key');
    expect((server.requests[0]?.json as { model: string }).model).toBe('judge-small');
  });

  it('takes client options beside the environment', async () => {
    server.handle = (_request, response) => send(response, 503, { error: 'busy' });
    const client = createHostedClient(
      { SYSTEM_ONE_API_KEY: 'k', SYSTEM_ONE_BASE_URL: server.baseURL, SYSTEM_ONE_MODEL: 'm' },
      { maxRetries: 0 },
    );
    await expect(client.evaluate({ state: 's', questions: doneCriteria })).rejects.toMatchObject({ kind: 'server', attempts: 1 });
  });

  it('names exactly the missing variables', () => {
    expect(configurationMessage({})).toContain('SYSTEM_ONE_API_KEY, SYSTEM_ONE_BASE_URL, SYSTEM_ONE_MODEL');
    const onlyModel = configurationMessage({ SYSTEM_ONE_API_KEY: 'k', SYSTEM_ONE_BASE_URL: 'https://x.example/v1' });
    expect(onlyModel).toContain('SYSTEM_ONE_MODEL');
    expect(onlyModel).not.toContain('SYSTEM_ONE_API_KEY');
    expect(onlyModel).not.toContain('SYSTEM_ONE_BASE_URL');
    const blankKey = configurationMessage({ SYSTEM_ONE_API_KEY: '  ', SYSTEM_ONE_BASE_URL: 'https://x.example/v1', SYSTEM_ONE_MODEL: 'm' });
    expect(blankKey).toContain('SYSTEM_ONE_API_KEY');
    expect(blankKey).not.toContain('SYSTEM_ONE_MODEL');
  });

  it('never echoes a key, even when another variable is wrong', () => {
    const message = configurationMessage({ SYSTEM_ONE_API_KEY: 'secret-key-1234', SYSTEM_ONE_BASE_URL: 'not a url', SYSTEM_ONE_MODEL: 'm' });
    expect(message).toContain('baseURL');
    expect(message).not.toContain('secret-key-1234');
  });

  it('reads process.env by default', () => {
    const saved = { ...process.env };
    try {
      delete process.env.SYSTEM_ONE_API_KEY;
      delete process.env.SYSTEM_ONE_BASE_URL;
      process.env.SYSTEM_ONE_MODEL = 'judge-small';
      expect(() => createHostedClient()).toThrow(/SYSTEM_ONE_API_KEY, SYSTEM_ONE_BASE_URL in the environment/);
    } finally {
      process.env = saved;
    }
  });
});
