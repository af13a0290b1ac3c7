// decisionModelClient over AI SDK 7's decision model contract (Experimental_DecisionMockModelV4): it decides as
// the scripted client does, turns every bad answer into a typed error, and plugs into each driver.
import { APICallError } from 'ai-v7';
import { Experimental_DecisionMockModelV4 } from 'ai-v7/test';
import { describe, expect, it } from 'vitest';
import { decisionModelClient, policyStopWhen } from '../../../../src/integrations/ai-sdk/index.js';
import { checkCompletion, createConfiguredClient, DecisionModelError, runAgentLoop, stopReasonOf, type DecisionModelClient } from '../../../../src/index.js';
import { createScriptedClient } from '../../../../src/testing/index.js';
import { generateText } from 'ai-v7';
import { asAiV7Settings, scriptedModel } from './model-script.js';

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
const SKIP = NODE_MAJOR < 22;
if (SKIP) console.warn(`skipped: AI SDK 7 needs Node 22 or later; this is Node ${process.versions.node}`);

// The V4 decision types, read off the mock (the top-level @ai-sdk/provider is AI SDK 6's).
type Experimental_DecisionModelV4CallOptions = Parameters<Experimental_DecisionMockModelV4['doDecide']>[0];
type Answers = Awaited<ReturnType<Experimental_DecisionMockModelV4['doDecide']>>['answers'];

function mockModel(reply: (options: Experimental_DecisionModelV4CallOptions, index: number) => Answers | Promise<Answers>, supported?: ('boolean' | 'choice' | 'score')[]) {
  const calls: Experimental_DecisionModelV4CallOptions[] = [];
  const model = new Experimental_DecisionMockModelV4({
    provider: 'test',
    modelId: 'judge-1',
    ...(supported === undefined ? {} : { supportedQuestionTypes: supported }),
    doDecide: async (options) => {
      calls.push(options);
      return { answers: await reply(options, calls.length - 1), usage: { inputTokens: 120, outputTokens: 4 }, warnings: [] };
    },
  });
  return { model, calls };
}

const input = { task: 'Make add(2, 3) return 5', output: 'Fixed add.', acceptance: ['add sums'], tests: { passed: true, failed: [], ran: 4 } };
const boolean = (probability: number) => ({ type: 'boolean' as const, probability });

async function rejection(promise: Promise<unknown>): Promise<DecisionModelError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!DecisionModelError.isInstance(error)) throw new Error(`expected a DecisionModelError, got ${String(error)}`);
  return error;
}

describe.skipIf(SKIP)('decisionModelClient over an AI SDK 7 decision model', () => {
  it('decides as the scripted client does with the same answers, and sends the criteria as boolean questions on one state', async () => {
    const { model, calls } = mockModel(() => ({ acceptanceCovered: boolean(0.91), noOpenQuestions: boolean(0.62) }));
    const viaSdk = await checkCompletion(decisionModelClient(model), input);
    const viaScript = await checkCompletion(createScriptedClient([{ acceptanceCovered: 0.91, noOpenQuestions: 0.62 }], { model: 'judge-1' }), input);
    expect(viaSdk).toEqual({ ...viaScript, usage: { inputTokens: 120, outputTokens: 4 } });
    expect(calls).toHaveLength(1);
    const sent = calls[0]!;
    expect(Object.values(sent.questions).map((question) => (question as { type: string }).type)).toEqual(['boolean', 'boolean']);
    expect(sent.state).toEqual([{ type: 'json', value: expect.objectContaining({ task: input.task, output: input.output, acceptance: input.acceptance }) }]);
  });

  it('reports the tokens, and a cost with a price', async () => {
    const { model } = mockModel(() => ({ acceptanceCovered: boolean(0.9) }));
    const client = decisionModelClient(model, { pricePerMillionTokens: { input: 3, output: 15 } });
    const result = await client.evaluate({ state: 'x', questions: { acceptanceCovered: { type: 'boolean', instructions: 'Covered?' } } });
    expect(result.usage).toEqual({ inputTokens: 120, outputTokens: 4, cost: (120 * 3 + 4 * 15) / 1_000_000 });
  });

  it('turns a refusal into invalid_response, never an answer', async () => {
    const { model } = mockModel(() => ({ acceptanceCovered: { type: 'refusal' }, noOpenQuestions: boolean(0.9) }));
    const error = await rejection(checkCompletion(decisionModelClient(model), input));
    expect(error.kind).toBe('invalid_response');
    expect(error.message).toMatch(/refused question "acceptanceCovered"/);
  });

  it('turns a probability of 1.5 and a missing answer into invalid_response', async () => {
    const outOfRange = mockModel(() => ({ acceptanceCovered: boolean(1.5), noOpenQuestions: boolean(0.9) }));
    expect((await rejection(checkCompletion(decisionModelClient(outOfRange.model), input))).kind).toBe('invalid_response');
    const missing = mockModel(() => ({ acceptanceCovered: boolean(0.9) }));
    expect((await rejection(checkCompletion(decisionModelClient(missing.model), input))).kind).toBe('invalid_response');
  });

  it('turns a model without boolean questions into a configuration error, before any call', async () => {
    const { model, calls } = mockModel(() => ({}), ['choice', 'score']);
    expect((await rejection(checkCompletion(decisionModelClient(model), input))).kind).toBe('configuration');
    expect(calls).toHaveLength(0);
  });

  it('keeps the meaning of provider errors after the SDK retries: 429 is rate_limited, 401 is auth', async () => {
    const limited = new Experimental_DecisionMockModelV4({
      doDecide: async () => {
        throw new APICallError({ message: 'slow down', url: 'http://127.0.0.1/decide', requestBodyValues: {}, statusCode: 429, isRetryable: true });
      },
    });
    const error = await rejection(decisionModelClient(limited, { maxRetries: 1 }).evaluate({ state: 'x', questions: { q: { type: 'boolean', instructions: 'Q?' } } }));
    expect(error.kind).toBe('rate_limited');
    const denied = new Experimental_DecisionMockModelV4({
      doDecide: async () => {
        throw new APICallError({ message: 'bad key', url: 'http://127.0.0.1/decide', requestBodyValues: {}, statusCode: 401, isRetryable: false });
      },
    });
    expect((await rejection(decisionModelClient(denied).evaluate({ state: 'x', questions: { q: { type: 'boolean', instructions: 'Q?' } } }))).kind).toBe('auth');
  });

  it('rejects what is no decision model at once', () => {
    expect(() => decisionModelClient({ specificationVersion: 'v3' } as never)).toThrow(/needs an AI SDK decision model/);
  });

  it('decides the runs of runAgentLoop and policyStopWhen', async () => {
    const { model } = mockModel(() => ({ acceptanceCovered: boolean(0.95), noOpenQuestions: boolean(0.95) }));
    const client: DecisionModelClient = decisionModelClient(model);
    const loop = await runAgentLoop({
      client,
      task: input.task,
      acceptance: input.acceptance,
      policy: {
        version: 2,
        rules: [
          { id: 'convinced', when: { criteria: { gte: 0.9 } }, then: { kind: 'stop', exit: 'success', reason: 'convinced' } },
          { id: 'cap', when: { limit: { of: 'steps', max: 3 } }, then: { kind: 'stop', exit: 'limit', reason: 'cap' } },
        ],
      },
      turn: async () => ({ text: 'Fixed add.' }),
    });
    expect(stopReasonOf(loop)).toBe('success');

    const stepped = await generateText({
      model: scriptedModel([{ text: 'Fixed.' }]),
      prompt: input.task,
      stopWhen: asAiV7Settings({ stopWhen: policyStopWhen({ client, task: input.task, acceptance: input.acceptance, readTests: () => input.tests }) }).stopWhen,
    });
    expect(stepped.text).toBe('Fixed.');
  });

  it('is what a configuration naming client "ai-sdk" builds: the model id through the default provider, each request within timeoutMs', async () => {
    const { model, calls } = mockModel(() => ({ acceptanceCovered: boolean(0.8), noOpenQuestions: boolean(0.7) }));
    const slow = new Experimental_DecisionMockModelV4({ doDecide: ({ abortSignal }) => new Promise((_, reject) => abortSignal?.addEventListener('abort', () => reject(abortSignal.reason))) });
    const global = globalThis as { AI_SDK_DEFAULT_PROVIDER?: unknown };
    global.AI_SDK_DEFAULT_PROVIDER = { decisionModel: (id: string) => (id === 'slow' ? slow : model) };
    try {
      const client = await createConfiguredClient({ client: 'ai-sdk', model: 'judge-1' });
      expect(client).toMatchObject({ client: 'ai-sdk', model: 'judge-1' });
      expect((await checkCompletion(client, input)).probabilities).toEqual({ acceptanceCovered: 0.8, noOpenQuestions: 0.7 });
      expect(calls).toHaveLength(1);
      const timed = await createConfiguredClient({ client: 'ai-sdk', model: 'slow', timeoutMs: 50 });
      expect((await rejection(checkCompletion(timed, input))).kind).toBe('timeout');
    } finally {
      delete global.AI_SDK_DEFAULT_PROVIDER;
    }
  });
});
