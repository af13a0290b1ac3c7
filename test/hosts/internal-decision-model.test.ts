import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/core/stop-policy.js';
import { isEvaluationError } from '../../src/judge/evaluation-error.js';
import { createConfiguredDecisionModel } from '../../src/hosts/internal-decision-model.js';
import type { HookCompletionRequest } from '../../src/hosts/hook-decision-model.js';
import { startLoopbackDecisionModel, systemOneAnswer, type LoopbackReply, type ReceivedRequest } from './loopback-decision-model.js';

const request: HookCompletionRequest = {
  task: 'Add pagination to /users',
  acceptance: ['pages of 50', 'a next link'],
  output: 'Implemented pagination with a next link.',
  tests: { passed: true, failed: [], ran: 12 },
  policy: DEFAULT_POLICY,
};

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function serve(reply: (request: ReceivedRequest, index: number) => LoopbackReply) {
  const server = await startLoopbackDecisionModel(reply);
  close = server.close;
  return server;
}

describe('the hook decision model (System One wire format)', () => {
  it('sends every question in one request with the key from the named variable, and reads P(yes)', async () => {
    const server = await serve(() => systemOneAnswer({ acceptanceCovered: 0.91, noOpenQuestions: 0.84 }));
    const model = await createConfiguredDecisionModel(
      { client: 'system-one', baseURL: server.baseURL, model: 'so-1', apiKeyEnv: 'TEST_KEY', timeoutMs: 5_000 },
      { TEST_KEY: 'secret-123' },
    );
    if (model instanceof Error) throw model;
    const checked = await model.check(request);
    expect(checked).toEqual({ modelSaysDone: true, probabilities: { acceptanceCovered: 0.91, noOpenQuestions: 0.84 }, model: 'system-one-2026-09' });
    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0];
    expect(sent?.path).toBe('/v1/systemone');
    expect(sent?.headers.authorization).toBe('Bearer secret-123');
    expect(sent?.body).toMatchObject({
      model: 'so-1',
      state: { task: 'Add pagination to /users', acceptance: ['pages of 50', 'a next link'], tests: { passed: true, ran: 12, failed: [] } },
      questions: { acceptanceCovered: { type: 'noul' }, noOpenQuestions: { type: 'noul' } },
    });
  });

  it('says the model does not say done when the lowest probability is below the threshold', async () => {
    const server = await serve(() => systemOneAnswer({ acceptanceCovered: 0.5, noOpenQuestions: 0.99 }));
    const model = await createConfiguredDecisionModel({ client: 'system-one', baseURL: server.baseURL, model: 'm', timeoutMs: 5_000 }, { SYSTEM_ONE_API_KEY: 'k' });
    if (model instanceof Error) throw model;
    expect(await model.check(request)).toMatchObject({ modelSaysDone: false });
  });

  it('resolves to a server error after one retry of a 500, never rejecting', async () => {
    const server = await serve(() => ({ status: 500, json: { error: 'boom' } }));
    const model = await createConfiguredDecisionModel({ client: 'system-one', baseURL: server.baseURL, model: 'm', timeoutMs: 5_000 }, { SYSTEM_ONE_API_KEY: 'k' });
    if (model instanceof Error) throw model;
    const checked = await model.check(request);
    expect(isEvaluationError(checked) && checked.kind).toBe('server');
    expect(server.requests).toHaveLength(2);
  });

  it('gives a timeout error when the model hangs', async () => {
    const server = await serve(() => 'hang');
    const model = await createConfiguredDecisionModel({ client: 'system-one', baseURL: server.baseURL, model: 'm', timeoutMs: 200 }, { SYSTEM_ONE_API_KEY: 'k' });
    if (model instanceof Error) throw model;
    const checked = await model.check(request);
    expect(isEvaluationError(checked) && checked.kind).toBe('timeout');
  });

  it('does not retry a 401 and never puts the key in the message', async () => {
    const server = await serve(() => ({ status: 401, json: { detail: 'bad key' } }));
    const model = await createConfiguredDecisionModel({ client: 'system-one', baseURL: server.baseURL, model: 'm', timeoutMs: 5_000 }, { SYSTEM_ONE_API_KEY: 'secret-xyz' });
    if (model instanceof Error) throw model;
    const checked = await model.check(request);
    expect(isEvaluationError(checked) && checked.kind).toBe('auth');
    expect(server.requests).toHaveLength(1);
    expect(JSON.stringify(checked)).not.toContain('secret-xyz');
  });

  it('refuses an answer without a valid probability for every question', async () => {
    for (const reply of [
      systemOneAnswer({ acceptanceCovered: 0.9 }),
      systemOneAnswer({ acceptanceCovered: 1.5, noOpenQuestions: 0.9 }),
      { status: 200, text: 'not json' } as LoopbackReply,
    ]) {
      const server = await serve(() => reply);
      const model = await createConfiguredDecisionModel({ client: 'system-one', baseURL: server.baseURL, model: 'm', timeoutMs: 5_000 }, { SYSTEM_ONE_API_KEY: 'k' });
      if (model instanceof Error) throw model;
      const checked = await model.check(request);
      expect(isEvaluationError(checked) && checked.kind).toBe('invalid_response');
      await close?.();
      close = undefined;
    }
  });

  it('names the missing settings instead of asking', async () => {
    const model = await createConfiguredDecisionModel({ client: 'system-one', apiKeyEnv: 'MY_KEY', timeoutMs: 5_000 }, {});
    expect(isEvaluationError(model) && model.kind).toBe('configuration');
    expect((model as Error).message).toBe(
      'the decision model is not configured: missing MY_KEY, judge.baseURL or SYSTEM_ONE_BASE_URL, judge.model or SYSTEM_ONE_MODEL',
    );
  });
});

describe('the hook decision model (OpenAI-compatible logprobs)', () => {
  it('asks one question a request and normalises the yes/no mass', async () => {
    const server = await serve(() => ({
      status: 200,
      json: {
        choices: [
          {
            logprobs: {
              content: [{ top_logprobs: [{ token: 'Yes', logprob: Math.log(0.6) }, { token: ' no', logprob: Math.log(0.2) }, { token: 'maybe', logprob: Math.log(0.1) }] }],
            },
          },
        ],
      },
    }));
    const model = await createConfiguredDecisionModel({ client: 'openai-compatible', baseURL: server.baseURL, model: 'llama', timeoutMs: 5_000 }, {});
    if (model instanceof Error) throw model;
    const checked = await model.check(request);
    expect(checked).toMatchObject({ modelSaysDone: true, probabilities: { acceptanceCovered: expect.closeTo(0.75, 6), noOpenQuestions: expect.closeTo(0.75, 6) } });
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
    expect(server.requests[0]?.body).toMatchObject({ max_tokens: 1, temperature: 0, logprobs: true, top_logprobs: 20 });
  });

  it('says the answer is unusable without logprobs', async () => {
    const server = await serve(() => ({ status: 200, json: { choices: [{ message: { content: 'yes' } }] } }));
    const model = await createConfiguredDecisionModel({ client: 'openai-compatible', baseURL: server.baseURL, model: 'llama', timeoutMs: 5_000 }, {});
    if (model instanceof Error) throw model;
    expect(isEvaluationError(await model.check(request))).toBe(true);
  });
});
