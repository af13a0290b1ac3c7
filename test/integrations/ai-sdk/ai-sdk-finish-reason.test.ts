import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { aiSdkFinishTool } from '../../src/index.js';
import { mapAiSdkFinishReason } from '../../src/providers/index.js';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const raw = (finishReason: string | null, rawFinishReason: string | null = null) => ({ finishReason, rawFinishReason });

describe('mapAiSdkFinishReason', () => {
  it('tool-calls with one call: call it, or halt for finish', () => {
    expect(mapAiSdkFinishReason({ finishReason: 'tool-calls', rawFinishReason: 'tool_use', toolCalls: [{ toolName: 'search', input: { q: 1 }, toolCallId: 't1' }] })).toEqual({
      type: 'call',
      tool: 'search',
      args: { q: 1 },
      id: 't1',
      raw: raw('tool-calls', 'tool_use'),
    });
    expect(mapAiSdkFinishReason({ finishReason: 'tool-calls', toolCalls: [{ toolName: 'finish', input: { kind: 'need_help', note: 'Which?' } }] })).toMatchObject({
      type: 'halt',
      stop: { kind: 'need_help', question: 'Which?' },
    });
  });

  it('tool-calls with zero, several or an invalid call halts as failed', () => {
    expect(mapAiSdkFinishReason({ finishReason: 'tool-calls', toolCalls: [] })).toMatchObject({ stop: { kind: 'failed', error: expect.stringContaining('0 tool calls') } });
    const two = [{ toolName: 'a', input: {} }, { toolName: 'b', input: {} }];
    expect(mapAiSdkFinishReason({ finishReason: 'tool-calls', toolCalls: two })).toMatchObject({ stop: { kind: 'failed' } });
    const invalid = [{ toolName: 'finish', input: { kind: 'x' }, invalid: true, error: new Error('Type validation failed') }];
    expect(mapAiSdkFinishReason({ finishReason: 'tool-calls', toolCalls: invalid })).toMatchObject({
      stop: { kind: 'failed', error: 'invalid tool call finish: Type validation failed' },
    });
  });

  it.each([
    ['stop', 'end_turn', { kind: 'blocked', reason: 'model stopped without finish' }],
    ['length', 'max_tokens', { kind: 'out_of_budget', limit: 'tokens' }],
    ['content-filter', 'refusal', { kind: 'blocked', reason: 'content filtered' }],
    ['error', null, { kind: 'failed', error: 'generation ended with finishReason error (raw null)' }],
    ['other', 'pause_turn', { kind: 'failed', error: 'generation ended with finishReason other (raw "pause_turn")' }],
    ['interrupted', null, { kind: 'failed', error: 'generation ended with finishReason interrupted (raw null)' }],
    [null, null, { kind: 'failed', error: 'unexpected finishReason null' }],
    ['unknown', 'x', { kind: 'failed', error: 'unexpected finishReason "unknown"' }],
  ])('%j (raw %j) halts as %j', (finishReason, rawFinishReason, stop) => {
    expect(mapAiSdkFinishReason({ finishReason, rawFinishReason, toolCalls: [] })).toEqual({ type: 'halt', stop, raw: raw(finishReason, rawFinishReason) });
  });

  it('maps the steps of a real generateText loop run against a mock model', async () => {
    const responses = [
      { content: [{ type: 'tool-call' as const, toolCallId: 't1', toolName: 'search', input: '{"q":"invoices"}' }], finishReason: { unified: 'tool-calls' as const, raw: 'tool_use' } },
      { content: [{ type: 'tool-call' as const, toolCallId: 't2', toolName: 'finish', input: '{"kind":"done","note":"3 invoices found"}' }], finishReason: { unified: 'tool-calls' as const, raw: 'tool_use' } },
    ];
    let call = 0;
    const model = new MockLanguageModelV3({ doGenerate: async () => ({ ...responses[call++]!, usage, warnings: [] }) });
    const result = await generateText({
      model,
      prompt: 'find the invoices',
      tools: {
        search: tool({ inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => `3 results for ${q}` }),
        finish: tool(aiSdkFinishTool),
      },
      stopWhen: stepCountIs(5),
    });
    expect(result.steps.map(mapAiSdkFinishReason)).toEqual([
      { type: 'call', tool: 'search', args: { q: 'invoices' }, id: 't1', raw: raw('tool-calls', 'tool_use') },
      { type: 'halt', stop: { kind: 'done', summary: '3 invoices found' }, raw: raw('tool-calls', 'tool_use') },
    ]);
  });
});
