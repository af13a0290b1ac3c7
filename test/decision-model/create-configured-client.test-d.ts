import { describe, expectTypeOf, it } from 'vitest';
import { createConfiguredClient, type ConfiguredClient, type DecisionModelConfig } from '../../src/decision-model/create-configured-client.js';
import { DECISION_MODEL_CLIENTS, type DecisionModelClientName } from '../../src/decision-model/decision-model-clients.js';
import type { DecisionModelClient } from '../../src/index.js';

describe('createConfiguredClient types', () => {
  it('takes a plain configuration naming one of the clients and resolves to a DecisionModelClient', () => {
    expectTypeOf(DECISION_MODEL_CLIENTS).toEqualTypeOf<readonly ['system-one', 'openai-compatible', 'ai-sdk']>();
    expectTypeOf<DecisionModelClientName>().toEqualTypeOf<'system-one' | 'openai-compatible' | 'ai-sdk'>();
    expectTypeOf(createConfiguredClient).returns.resolves.toEqualTypeOf<ConfiguredClient>();
    expectTypeOf<ConfiguredClient>().toMatchTypeOf<DecisionModelClient>();
    expectTypeOf<{ client: 'system-one'; model: 'judge-small' }>().toMatchTypeOf<DecisionModelConfig>();
    expectTypeOf<{ client: 'claude' }>().not.toMatchTypeOf<DecisionModelConfig>();
    // The key itself is never part of the configuration.
    expectTypeOf<DecisionModelConfig>().not.toHaveProperty('apiKey');
  });
});
