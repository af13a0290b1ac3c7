import { generateText, tool, ToolLoopAgent, type StepResult, type StopCondition, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  completionStopWhen,
  createCompletionAgent,
  createCompletionStopWhen,
  hardCapStopWhen,
  policyStopWhen,
  type StepDecisionOptions,
} from '../../../src/integrations/ai-sdk/index.js';
import { SEED_STOP_POLICY, type StopDecision, type StopEvent } from '../../../src/index.js';
import { createScriptedClient } from '../../../src/testing/index.js';

const tools = {
  runTests: tool({ inputSchema: z.object({ filter: z.string() }), execute: async () => ({ passed: true }) }),
};
type Tools = typeof tools;
const model = new MockLanguageModelV3();

describe('stop conditions are AI SDK 6 StopConditions', () => {
  it('hardCapStopWhen fits StopCondition for any tool set', () => {
    expectTypeOf(hardCapStopWhen(3)).toExtend<StopCondition<ToolSet>>();
    expectTypeOf(hardCapStopWhen()).toExtend<StopCondition<Tools>>();
  });

  it('createCompletionStopWhen and completionStopWhen fit StopCondition and stopWhen', () => {
    expectTypeOf(createCompletionStopWhen(() => true)).toExtend<StopCondition<ToolSet>>();
    expectTypeOf(createCompletionStopWhen<Tools>(async () => true)).toExtend<StopCondition<Tools>>();
    expectTypeOf(completionStopWhen(() => true)).toExtend<Array<StopCondition<ToolSet>>>();
    expectTypeOf(completionStopWhen<Tools>(() => true, 5)).toExtend<Array<StopCondition<Tools>>>();
  });

  it('the check sees typed steps of the loop it is in', () => {
    void generateText({
      model,
      tools,
      prompt: 'x',
      stopWhen: [
        hardCapStopWhen(5),
        createCompletionStopWhen<Tools>((steps) => {
          expectTypeOf(steps).toEqualTypeOf<ReadonlyArray<StepResult<Tools>>>();
          return steps.at(-1)?.toolCalls.some((call) => call.toolName === 'runTests') ?? false;
        }),
      ],
    });
    void generateText({ model, tools, prompt: 'x', stopWhen: completionStopWhen<Tools>(() => true, 5) });
    void new ToolLoopAgent({ model, tools, stopWhen: completionStopWhen<Tools>(() => true) });
  });

  it('the check must answer with a boolean', () => {
    // @ts-expect-error a string is not a boolean answer
    createCompletionStopWhen(() => 'done');
    // @ts-expect-error the cap is a number
    hardCapStopWhen('3');
  });

  it('policyStopWhen fits StopCondition; the seed preset needs client, task, acceptance and readTests, a document only what its rules read', () => {
    const client = createScriptedClient([]);
    const readTests = () => ({ passed: true, failed: [], ran: 1 });
    const seed = policyStopWhen<Tools>({ client, task: 't', acceptance: ['a'], readTests });
    expectTypeOf(seed).toExtend<StopCondition<Tools>>();
    expectTypeOf(policyStopWhen({ policy: SEED_STOP_POLICY })).toExtend<StopCondition<ToolSet>>();
    // @ts-expect-error the seed preset asks the decision model: client is required
    policyStopWhen({ task: 't', acceptance: ['a'], readTests });
    // @ts-expect-error the seed preset decides on test evidence: readTests is required
    policyStopWhen({ client, task: 't', acceptance: ['a'] });
    // @ts-expect-error the decision model judges against the task
    policyStopWhen({ client, acceptance: ['a'], readTests });
    policyStopWhen<Tools>({
      policy: SEED_STOP_POLICY,
      readTests: (steps) => {
        expectTypeOf(steps).toEqualTypeOf<ReadonlyArray<StepResult<Tools>>>();
        return { passed: true, failed: [], ran: 1 };
      },
      onDecision: (decision, event) => {
        expectTypeOf(decision).toEqualTypeOf<StopDecision>();
        expectTypeOf(event).toEqualTypeOf<StopEvent>();
      },
    });
    expectTypeOf<StepDecisionOptions<Tools>>().toHaveProperty('onDecision');
    void generateText({ model, tools, prompt: 'x', stopWhen: [hardCapStopWhen(5), seed] });
  });

  it('createCompletionAgent returns a ToolLoopAgent over the given tools', () => {
    const agent = createCompletionAgent({ model, tools, checkDone: () => true });
    expectTypeOf(agent).toEqualTypeOf<ToolLoopAgent<never, Tools>>();
    // @ts-expect-error stopWhen is set by the completion agent itself
    createCompletionAgent({ model, tools, checkDone: () => true, stopWhen: hardCapStopWhen(1) });
  });
});
