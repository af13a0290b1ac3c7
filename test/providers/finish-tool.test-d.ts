import type Anthropic from '@anthropic-ai/sdk';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import type { FunctionTool, ResponseCreateParamsNonStreaming } from 'openai/resources/responses/responses';
import { tool } from 'ai';
import type * as z from 'zod/mini';
import { describe, expectTypeOf, it } from 'vitest';
import type { FinishSignal } from '../../src/index.js';
import { aiSdkFinishTool, finishToolZodSchema } from '../../src/providers/finish-tool.js';
import { anthropicFinishTool, openAIFinishTool, openAIResponsesFinishTool } from '../../src/providers/index.js';

describe('ready-made finish tools fit the provider SDK types', () => {
  it('Anthropic Messages: a Tool with input_schema and strict', () => {
    const asTool: Anthropic.Messages.Tool = anthropicFinishTool;
    const params: Pick<Anthropic.Messages.MessageCreateParamsNonStreaming, 'tools'> = { tools: [anthropicFinishTool] };
    expectTypeOf(asTool.strict).toEqualTypeOf<boolean | undefined>();
    expectTypeOf(params).not.toBeAny();
  });

  it('OpenAI Chat Completions: a function tool', () => {
    const asTool: ChatCompletionFunctionTool = openAIFinishTool;
    const params: Pick<ChatCompletionCreateParamsNonStreaming, 'tools'> = { tools: [openAIFinishTool] };
    expectTypeOf(asTool.type).toEqualTypeOf<'function'>();
    expectTypeOf(params).not.toBeAny();
  });

  it('OpenAI Responses: the flat function tool, and the chat shape does not fit it', () => {
    const asTool: FunctionTool = openAIResponsesFinishTool;
    const params: Pick<ResponseCreateParamsNonStreaming, 'tools'> = { tools: [openAIResponsesFinishTool] };
    // @ts-expect-error the Chat Completions shape nests the function: the Responses API needs the flat one
    const wrong: FunctionTool = openAIFinishTool;
    expectTypeOf(asTool.name).toEqualTypeOf<string>();
    expectTypeOf([params, wrong]).not.toBeAny();
  });

  it('AI SDK: the zod schema types the tool input as a finish signal', () => {
    const finish = tool({ ...aiSdkFinishTool, execute: async (input) => input });
    expectTypeOf(finish.execute).parameter(0).toEqualTypeOf<{ kind: FinishSignal['kind']; note: string }>();
    expectTypeOf<z.infer<typeof finishToolZodSchema>>().toEqualTypeOf<{ kind: FinishSignal['kind']; note: string }>();
  });
});
