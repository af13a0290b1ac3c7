import { describe, expect, it } from 'vitest';
import { createLogprobClient } from '../../src/decision-model/openai-compatible/logprob-client.js';
import { createSystemOneClient } from '../../src/decision-model/system-one/system-one-client.js';
import { createScriptedClient } from '../../src/testing/scripted-client.js';
import type { DecisionModelClient } from '../../src/decision-model/decision-model-client.js';
import { describeDecisionModelClientContract, type ContractHarness } from './decision-model-client-contract.js';
import {
  MISSING,
  NAN,
  askedQuestion,
  chatBody,
  send,
  startLoopbackServer,
  systemOneBody,
  type WireValue,
} from './loopback-server.js';
import { doneCriteria } from '../../src/decision-model/boolean-question.js';

const FAST = { initialDelayMs: 1, maxDelayMs: 5 };

describeDecisionModelClientContract('scripted client', async (): Promise<ContractHarness> => {
  let values: Readonly<Record<string, WireValue>> = {};
  const client = createScriptedClient((request) => {
    const answers: Record<string, number> = {};
    for (const name of Object.keys(request.questions)) {
      const value = values[name] ?? 0.5;
      if (value === MISSING) continue;
      answers[name] = (value === NAN ? Number.NaN : value) as number;
    }
    return answers;
  });
  return {
    client,
    answerWith: (next) => {
      values = next;
    },
    calls: () => client.calls.length,
    close: async () => undefined,
  };
});

describeDecisionModelClientContract('System One client on loopback', async (): Promise<ContractHarness> => {
  let values: Readonly<Record<string, WireValue>> = {};
  const server = await startLoopbackServer((request, response) => {
    const asked = Object.keys((request.json as { questions: object }).questions);
    const answers: Record<string, WireValue> = { notAsked: 0.5 };
    for (const name of asked) answers[name] = values[name] ?? 0.5;
    send(response, 200, systemOneBody(answers, { unknownField: { nested: true } }));
  });
  return {
    client: createSystemOneClient({ apiKey: 'sk-contract', baseURL: server.baseURL, model: 'judge-small', retryTiming: FAST }),
    answerWith: (next) => {
      values = next;
    },
    calls: () => server.requests.length,
    close: () => server.close(),
  };
});

describeDecisionModelClientContract('logprob client on loopback', async (): Promise<ContractHarness> => {
  let values: Readonly<Record<string, WireValue>> = {};
  let instructions: Record<string, string> = {};
  const server = await startLoopbackServer((request, response) => {
    send(response, 200, chatBody(values[askedQuestion(request, instructions)] ?? 0.5));
  });
  const inner = createLogprobClient({ baseURL: server.baseURL, model: 'judge-7b', retryTiming: FAST });
  const client: DecisionModelClient = {
    evaluate: (request, options) => {
      instructions = Object.fromEntries(Object.entries(request.questions).map(([name, q]) => [name, q.instructions]));
      return inner.evaluate(request, options);
    },
  };
  return {
    client,
    answerWith: (next) => {
      values = next;
    },
    calls: () => server.requests.length,
    close: () => server.close(),
  };
});

describe('the contract harness itself', () => {
  it('the logprob body gives back the probability it was built for', async () => {
    const server = await startLoopbackServer((_request, response) => send(response, 200, chatBody(0.37)));
    try {
      const client = createLogprobClient({ baseURL: server.baseURL, model: 'm' });
      const result = await client.evaluate({ state: 's', questions: { acceptanceCovered: doneCriteria.acceptanceCovered! } });
      expect(result.answers.acceptanceCovered?.probability).toBeCloseTo(0.37, 12);
    } finally {
      await server.close();
    }
  });
});
