// A client of the System One TypeScript SDK (contracts: `createSystemOne`,
// `booleanQuestion(text, { true, false })`, `client.evaluate({ state, questions })`
// → `{ answers: { k: { type: 'boolean', probability } }, model, usage }`) is
// not on the registry; this local declaration has its shape.
import { describe, expectTypeOf, it } from 'vitest';
import type { DecisionModelClient, DecisionModelRequest } from '../../src/decision-model/decision-model-client.js';
import { createCachedClient } from '../../src/decision-model/cached-client.js';
import { checkCompletion, decideCompletionAfterEvaluate } from '../../src/index.js';

declare namespace SystemOneSdk {
  interface BooleanQuestion {
    type: 'boolean';
    instructions?: string | object | unknown[] | null;
    criteria?: { true?: string | object | unknown[] | null; false?: string | object | unknown[] | null };
  }
  type Question = BooleanQuestion | { type: 'choice'; choices: string[] } | { type: 'score'; min: number; max: number };
  interface BooleanAnswer {
    type: 'boolean';
    probability: number;
  }
  interface EvaluateResult<Q extends Record<string, Question>> {
    answers: { [K in keyof Q]: BooleanAnswer };
    model: string;
    usage: { input_tokens: number; output_tokens: number };
  }
  interface Client {
    evaluate<Q extends Record<string, Question>>(
      request: { state: string | object | unknown[]; questions: Q },
      options?: { signal?: AbortSignal; timeoutMs?: number },
    ): Promise<EvaluateResult<Q>>;
  }
  interface UnknownStateClient {
    evaluate(request: { state: unknown; questions: Record<string, Question> }): Promise<{
      answers: Record<string, BooleanAnswer>;
      model: string;
      usage?: { input_tokens?: number; output_tokens?: number };
    }>;
  }
  interface CamelCaseClient {
    evaluate(request: { state: unknown; questions: Record<string, Question> }): Promise<{
      answers: Record<string, BooleanAnswer>;
      model: string;
      usage: { inputTokens: number; outputTokens: number };
    }>;
  }
}
declare function createSystemOne(options: {
  apiKey: string;
  baseURL?: string;
  model: string;
  adapter?: unknown;
  transport?: unknown;
  timeoutMs?: number;
  maxRetries?: number;
}): SystemOneSdk.Client;

describe('DecisionModelClient is structural', () => {
  it('accepts a System One SDK client (snake_case usage)', () => {
    const sdk = createSystemOne({ apiKey: 'k', model: 'm' });
    expectTypeOf(sdk).toExtend<DecisionModelClient>();
    const client: DecisionModelClient = sdk;
    expectTypeOf(checkCompletion).toBeCallableWith(client, {
      task: 't',
      output: 'o',
      acceptance: [],
      tests: { passed: true, failed: [], ran: 1 },
    });
    expectTypeOf(decideCompletionAfterEvaluate).toBeCallableWith(sdk, {
      task: 't',
      output: 'o',
      acceptance: [],
      tests: { passed: true, failed: [], ran: 1 },
      loop: { step: 1, recentFingerprints: [] },
    });
    expectTypeOf(createCachedClient).toBeCallableWith(sdk, { maxEntries: 8 });
  });

  it('accepts an SDK client typing the state as unknown', () => {
    expectTypeOf<SystemOneSdk.UnknownStateClient>().toExtend<DecisionModelClient>();
  });

  it('accepts an SDK client reporting usage in camelCase', () => {
    expectTypeOf<SystemOneSdk.CamelCaseClient>().toExtend<DecisionModelClient>();
  });

  it('accepts a hand-written object with an evaluate method', () => {
    const handWritten = {
      evaluate: async (request: DecisionModelRequest) => ({
        answers: Object.fromEntries(Object.keys(request.questions).map((name) => [name, { probability: 0.5 }])),
        model: 'mine',
      }),
    };
    expectTypeOf(handWritten).toExtend<DecisionModelClient>();
  });

  it('refuses a client whose answers carry no probability', () => {
    const wrong = {
      evaluate: async () => ({ answers: { a: { value: true } }, model: 'x' }),
    };
    expectTypeOf(wrong).not.toExtend<DecisionModelClient>();
    // @ts-expect-error answers need { probability: number }
    const client: DecisionModelClient = wrong;
    void client;
  });

  it('refuses a client with no model name', () => {
    expectTypeOf<{ evaluate(): Promise<{ answers: Record<string, { probability: number }> }> }>().not.toExtend<DecisionModelClient>();
  });
});
