import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { doneCriteria } from '../../../src/decision-model/boolean-question.js';
import { isDecisionModelError } from '../../../src/decision-model/decision-model-error.js';
import { createSystemOneClient } from '../../../src/decision-model/system-one/system-one-client.js';
import { thrown } from '../caught-errors.js';
import { send, startLoopbackServer, systemOneBody, type LoopbackServer } from '../loopback-server.js';

const KEY = 'so-test-4b1d9e77c0a2';

describe('createSystemOneClient on a loopback server', () => {
  let server: LoopbackServer;
  beforeEach(async () => {
    server = await startLoopbackServer((_request, response) =>
      send(response, 200, systemOneBody({ acceptanceCovered: 0.74, noOpenQuestions: 0.31 }), { 'x-typesafe-request-id': 'ts-1' }),
    );
  });
  afterEach(() => server.close());

  it('posts { model, state, questions } to {baseURL}/systemone with the bearer key, questions as noul', async () => {
    const client = createSystemOneClient({ apiKey: KEY, baseURL: `${server.baseURL}/`, model: 'judge-small', headers: { 'x-team': 'infra' } });
    const result = await client.evaluate({ state: { output: 'done' }, questions: doneCriteria });
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/systemone');
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['x-team']).toBe('infra');
    expect(request?.json).toEqual({
      model: 'judge-small',
      state: { output: 'done' },
      questions: {
        acceptanceCovered: { type: 'noul', instructions: doneCriteria.acceptanceCovered!.instructions, criteria: doneCriteria.acceptanceCovered!.criteria },
        noOpenQuestions: { type: 'noul', instructions: doneCriteria.noOpenQuestions!.instructions, criteria: doneCriteria.noOpenQuestions!.criteria },
      },
    });
    expect(result).toEqual({
      answers: { acceptanceCovered: { probability: 0.74 }, noOpenQuestions: { probability: 0.31 } },
      model: 'judge-small-2026-09-01',
      usage: { inputTokens: 812, outputTokens: 4 },
    });
  });

  it('does not let a header option replace the key', async () => {
    const client = createSystemOneClient({ apiKey: KEY, baseURL: server.baseURL, model: 'm', headers: { Authorization: 'Bearer other' } });
    await client.evaluate({ state: 's', questions: doneCriteria });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('lists models from GET {baseURL}/models', async () => {
    server.handle = (_request, response) =>
      send(response, 200, { models: [{ name: 'judge-small', description: 'fast', release_date: '2026-09-01' }] });
    const client = createSystemOneClient({ apiKey: KEY, baseURL: server.baseURL, model: 'judge-small' });
    expect(await client.listModels()).toEqual([{ name: 'judge-small', description: 'fast', releaseDate: '2026-09-01' }]);
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('retries listModels like evaluate, and reports the request id', async () => {
    server.handle = (_request, response, index) =>
      index < 2
        ? send(response, 503, { error: 'busy' }, { 'request-id': `r-${index}` })
        : send(response, 200, { models: [{ name: 'judge-small' }] });
    const client = createSystemOneClient({ apiKey: KEY, baseURL: server.baseURL, model: 'm', retryTiming: { initialDelayMs: 1 } });
    expect(await client.listModels()).toEqual([{ name: 'judge-small' }]);
    expect(server.requests).toHaveLength(3);
    server.handle = (_request, response) => send(response, 401, { detail: 'bad key' }, { 'x-request-id': 'r-auth' });
    await expect(client.listModels()).rejects.toMatchObject({ kind: 'auth', status: 401, requestId: 'r-auth', attempts: 1 });
  });

  it('refuses a question of another type without sending it', async () => {
    const client = createSystemOneClient({ apiKey: KEY, baseURL: server.baseURL, model: 'm' });
    await expect(client.evaluate({ state: 's', questions: { a: { type: 'score' } } as never })).rejects.toMatchObject({
      kind: 'invalid_request',
    });
    expect(server.requests).toHaveLength(0);
  });

  it('never quotes a long key that a server echoes into an answer, not even its start', async () => {
    const longKey = `so-live-${'9f3c2a71'.repeat(8)}`;
    server.handle = (request, response) =>
      send(response, 200, {
        model: 'm',
        answers: {
          acceptanceCovered: { type: 'noul', noul: String(request.headers.authorization) },
          noOpenQuestions: { type: String(request.headers.authorization), noul: 0.5 },
        },
      });
    const client = createSystemOneClient({ apiKey: longKey, baseURL: server.baseURL, model: 'm' });
    const error = await client.evaluate({ state: 's', questions: doneCriteria }).catch((caught: unknown) => caught);
    expect(isDecisionModelError(error) && error.kind).toBe('invalid_response');
    const shown = inspect(error, { depth: 10 });
    expect(shown).not.toContain(longKey.slice(0, 12));
    expect(shown).toContain('[redacted]');
  });

  it('keeps the key out of the client object', () => {
    const client = createSystemOneClient({ apiKey: KEY, baseURL: server.baseURL, model: 'm' });
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(KEY);
    expect(JSON.stringify(client)).not.toContain(KEY);
  });
});

describe('createSystemOneClient configuration', () => {
  const base = { apiKey: KEY, baseURL: 'https://api.example.com/v1', model: 'judge-small' };

  it.each([
    ['an empty key', { apiKey: '' }, 'apiKey'],
    ['a key with a line break', { apiKey: `${KEY}\nX-Injected: 1` }, 'apiKey'],
    ['no base URL', { baseURL: '' }, 'baseURL'],
    ['a relative base URL', { baseURL: '/v1' }, 'baseURL'],
    ['a base URL with another scheme', { baseURL: 'ftp://example.com' }, 'baseURL'],
    ['credentials in the base URL', { baseURL: 'https://user:pw@example.com/v1' }, 'baseURL'],
    ['a query in the base URL', { baseURL: 'https://example.com/v1?key=abc' }, 'baseURL'],
    ['no model', { model: ' ' }, 'model'],
    ['a zero timeout', { timeoutMs: 0 }, 'timeoutMs'],
    ['negative retries', { maxRetries: -1 }, 'maxRetries'],
    ['fractional retries', { maxRetries: 1.5 }, 'maxRetries'],
    ['a header with a line break', { headers: { 'x-a': 'b\r\nc' } }, 'headers'],
    ['a bad retry timing', { retryTiming: { initialDelayMs: -5 } }, 'initialDelayMs'],
  ])('refuses %s with a configuration error naming %s, without the key', (_label, patch, field) => {
    const error = thrown(() => createSystemOneClient({ ...base, ...patch } as never));
    expect(isDecisionModelError(error) && error.kind).toBe('configuration');
    expect((error as Error).message).toContain(field);
    expect(inspect(error)).not.toContain(KEY);
  });
});
