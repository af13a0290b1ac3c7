import { generateText, tool, ToolLoopAgent, type StepResult, type RuleCondition, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  completionStopWhen,
  createCompletionAgent,
  createCompletionStopWhen,
  hardCapStopWhen,
} from '../../../src/integrations/ai-sdk/index.js';

const tools = {
  runTests: tool({ inputSchema: z.object({ filter: z.string() }), execute: async () => ({ passed: true }) }),
};
type Tools = typeof tools;
const model = new MockLanguageModelV3();

describe('stop conditions are AI SDK 6 StopConditions', () => {
  it('hardCapStopWhen fits RuleCondition for any tool set', () => {
    expectTypeOf(hardCapStopWhen(3)).toExtend<StopCondition<ToolSet>>();
    expectTypeOf(hardCapStopWhen()).toExtend<StopCondition<Tools>>();
  });

  it('createCompletionStopWhen and completionStopWhen fit RuleCondition and stopWhen', () => {
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

  it('createCompletionAgent returns a ToolLoopAgent over the given tools', () => {
    const agent = createCompletionAgent({ model, tools, checkDone: () => true });
    expectTypeOf(agent).toEqualTypeOf<ToolLoopAgent<never, Tools>>();
    // @ts-expect-error stopWhen is set by the completion agent itself
    createCompletionAgent({ model, tools, checkDone: () => true, stopWhen: hardCapStopWhen(1) });
  });
});
