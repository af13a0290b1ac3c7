import { generateText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { aiSdkFinishTool, finishToolZodSchema } from '../../src/providers/finish-tool.js';
import { FINISH_TOOL_NAME, anthropicFinishTool, finishToolInputSchema, openAIFinishTool, openAIResponsesFinishTool } from '../../src/providers/index.js';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

describe('finishToolInputSchema', () => {
  it('is { kind, note }, both required, no other property', () => {
    expect(finishToolInputSchema).toMatchObject({
      type: 'object',
      properties: { kind: { type: 'string', enum: ['done', 'give_up', 'need_help'] }, note: { type: 'string' } },
      required: ['kind', 'note'],
      additionalProperties: false,
    });
    expect(Object.keys(finishToolInputSchema.properties)).toEqual(['kind', 'note']);
  });

  it('is exactly what zod generates from the zod schema, so the two cannot drift', () => {
    const { $schema: _draft, ...generated } = z.toJSONSchema(finishToolZodSchema) as Record<string, unknown>;
    expect(generated).toEqual(finishToolInputSchema);
  });

  it('is frozen, so one caller cannot change every other caller\'s tool', () => {
    expect(Object.isFrozen(finishToolInputSchema)).toBe(true);
    expect(Object.isFrozen(finishToolInputSchema.properties.kind.enum)).toBe(true);
    expect(Object.isFrozen(openAIFinishTool.function)).toBe(true);
  });
});

describe('ready-made tools', () => {
  it('are all named finish, strict, with the same schema', () => {
    expect(FINISH_TOOL_NAME).toBe('finish');
    expect(anthropicFinishTool).toMatchObject({ name: 'finish', strict: true, input_schema: finishToolInputSchema });
    expect(openAIFinishTool).toMatchObject({ type: 'function', function: { name: 'finish', strict: true, parameters: finishToolInputSchema } });
    expect(openAIResponsesFinishTool).toMatchObject({ type: 'function', name: 'finish', strict: true, parameters: finishToolInputSchema });
    expect(anthropicFinishTool.description).toMatch(/done.*give_up.*need_help/s);
  });

  it('the AI SDK sends the zod schema to the model as the same JSON Schema and parses the call', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({
        content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'finish', input: JSON.stringify({ kind: 'give_up', note: 'portal offline' }) }],
        finishReason: { unified: 'tool-calls', raw: 'tool_use' },
        usage,
        warnings: [],
      }),
    });
    const result = await generateText({ model, prompt: 'fetch the invoices', tools: { finish: tool(aiSdkFinishTool) } });
    const sent = model.doGenerateCalls[0]?.tools?.[0];
    expect(sent).toMatchObject({ type: 'function', name: 'finish', description: aiSdkFinishTool.description });
    if (sent?.type !== 'function') throw new Error('the finish tool was not sent as a function tool');
    const { $schema: _draft, ...schema } = sent.inputSchema as Record<string, unknown>;
    expect(schema).toEqual(finishToolInputSchema);
    expect(result.toolCalls).toMatchObject([{ toolName: 'finish', input: { kind: 'give_up', note: 'portal offline' } }]);
  });

  it('the AI SDK flags a finish call that breaks the schema as invalid', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({
        content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'finish', input: JSON.stringify({ kind: 'finished' }) }],
        finishReason: { unified: 'tool-calls', raw: 'tool_use' },
        usage,
        warnings: [],
      }),
    });
    const result = await generateText({ model, prompt: 'x', tools: { finish: tool(aiSdkFinishTool) } });
    expect(result.toolCalls[0]).toMatchObject({ toolName: 'finish', invalid: true });
  });
});
