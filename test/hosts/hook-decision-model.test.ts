import { afterEach, describe, expect, it } from 'vitest';
import { createStopPolicy } from '../../src/core/stop-policy.js';
import { createHookClient, hookCompletionInput } from '../../src/hosts/hook-decision-model.js';
import { parseStopwiseConfig } from '../../src/hosts/stopwise-config.js';
import { DecisionModelError } from '../../src/decision-model/decision-model-error.js';
import type { DecisionModelClient } from '../../src/decision-model/decision-model-client.js';
import { startLoopbackDecisionModel, systemOneAnswer, type LoopbackReply } from './loopback-decision-model.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function server(reply: LoopbackReply) {
  const started = await startLoopbackDecisionModel(() => reply);
  close = started.close;
  return started;
}

const question = { state: 'x', questions: { done: { type: 'boolean', instructions: 'Done?' } } } as const;

describe('createHookClient', () => {
  it('returns the error, naming the configuration keys, when the client cannot be made', async () => {
    const made = await createHookClient({ client: 'system-one', apiKeyEnv: 'STOPWISE_TEST_KEY' }, {});
    expect(made).toBeInstanceOf(Error);
    expect((made as Error).message).toBe(
      'the system-one decision model needs: the key (STOPWISE_TEST_KEY in the environment, named by decisionModel.apiKeyEnv); the base URL (decisionModel.baseURL, or SYSTEM_ONE_BASE_URL in the environment); the model (decisionModel.model, or SYSTEM_ONE_MODEL in the environment)',
    );
  });

  it('makes one request for an error that is not retried and two for one that is (one retry)', async () => {
    const unauthorized = await server({ status: 401, json: { detail: 'bad key' } });
    const client = (await createHookClient(
      { client: 'system-one', baseURL: unauthorized.baseURL, model: 'm', apiKeyEnv: 'STOPWISE_TEST_KEY', timeoutMs: 2_000 },
      { STOPWISE_TEST_KEY: 'secret-key-1' },
    )) as DecisionModelClient;
    const error: unknown = await client.evaluate(question).catch((caught: unknown) => caught);
    expect(DecisionModelError.isInstance(error) && error.kind).toBe('auth');
    expect(String((error as Error).message)).not.toContain('secret-key-1');
    expect(unauthorized.requests).toHaveLength(1);
    await close?.();

    const overloaded = await server({ status: 503, json: {}, headers: { 'retry-after': '0' } });
    const retried = (await createHookClient(
      { client: 'system-one', baseURL: overloaded.baseURL, model: 'm', apiKeyEnv: 'STOPWISE_TEST_KEY', timeoutMs: 2_000 },
      { STOPWISE_TEST_KEY: 'secret-key-1' },
    )) as DecisionModelClient;
    const second: unknown = await retried.evaluate(question).catch((caught: unknown) => caught);
    expect(DecisionModelError.isInstance(second) && second.kind).toBe('server');
    expect(overloaded.requests).toHaveLength(2);
  });

  it('answers through a reachable server', async () => {
    const ok = await server(systemOneAnswer({ done: 0.8 }));
    const client = (await createHookClient({ client: 'system-one', baseURL: ok.baseURL, model: 'm', timeoutMs: 2_000 }, { SYSTEM_ONE_API_KEY: 'k' })) as DecisionModelClient;
    await expect(client.evaluate(question)).resolves.toMatchObject({ answers: { done: { probability: 0.8 } } });
  });
});

describe('hookCompletionInput', () => {
  it("asks about the configured task and acceptance, the agent's message and the evidence, with the policy", () => {
    const parsed = parseStopwiseConfig({ task: 't', acceptance: ['a'], tests: { command: 'x' }, policy: { doneThreshold: 0.8 } });
    if (!parsed.ok) throw new Error(parsed.message);
    const policy = createStopPolicy({ doneThreshold: 0.8 });
    const tests = { passed: true, failed: [], ran: 3 };
    expect(hookCompletionInput(parsed.config, 'done', tests)).toEqual({
      task: 't',
      output: 'done',
      acceptance: ['a'],
      tests,
      policy,
    });
  });
});
