import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { mapAiSdkFinishReason } from '../../../src/integrations/ai-sdk/ai-sdk-finish-reason.js';
import { aiSdkFinishTool } from '../../../src/providers/finish-tool.js';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const raw = (finishReason: string | null, rawFinishReason: string | null = null) => ({ finishReason, rawFinishReason });

describe('mapAiSdkFinishReason', () => {
  it('tool-calls with one call: a call, or the end of the step with the finish signal', () => {
    expect(mapAiSdkFinishReason({ finishReason: 'tool-calls', rawFinishReason: 'tool_use', toolCalls: [{ toolName: 'search', input: { q: 1 }, toolCallId: 't1' }] })).toEqual({
      type: 'call',
      tool: 'search',
      args: { q: 1 },
      id: 't1',
      raw: raw('tool-calls', 'tool_use'),
    });
    expect(mapAiSdkFinishReason({ finishReason: 'tool-calls', toolCalls: [{ toolName: 'finish', input: { kind: 'need_help', note: 'Which?' } }] })).toEqual({
      type: 'end',
      signal: { kind: 'need_help', note: 'Which?' },
      raw: raw('tool-calls'),
    });
    expect(mapAiSdkFinishReason({ finishReason: 'tool-calls', toolCalls: [{ toolName: 'finish', input: { kind: 'give_up', note: '' } }] })).toMatchObject({
      type: 'end',
      provider: { stop: 'failed', detail: expect.stringMatching(/^invalid finish input: note: a give_up needs a non-empty note/) },
    });
  });

  it('tool-calls with zero, several or an invalid call is a generation that could not be read', () => {
    expect(mapAiSdkFinishReason({ finishReason: 'tool-calls', toolCalls: [] })).toEqual({
      type: 'end',
      provider: { stop: 'failed', detail: 'tool-calls with 0 tool calls; expected exactly one (one tool call per step)' },
      raw: raw('tool-calls'),
    });
    const two = [{ toolName: 'a', input: {} }, { toolName: 'b', input: {} }];
    expect(mapAiSdkFinishReason({ finishReason: 'tool-calls', toolCalls: two })).toMatchObject({ type: 'end', provider: { stop: 'failed', detail: expect.stringContaining('2 tool calls') } });
    const invalid = [{ toolName: 'finish', input: { kind: 'x' }, invalid: true, error: new Error('Type validation failed') }];
    expect(mapAiSdkFinishReason({ finishReason: 'tool-calls', toolCalls: invalid })).toMatchObject({
      provider: { stop: 'failed', detail: 'invalid tool call finish: Type validation failed' },
    });
    expect(mapAiSdkFinishReason({ finishReason: 'tool-calls', toolCalls: [{ toolName: 'x', input: {}, invalid: true }] })).toMatchObject({
      provider: { stop: 'failed', detail: 'invalid tool call x: no detail' },
    });
  });

  it.each([
    ['stop', 'end_turn', { signal: { kind: 'give_up', note: 'model stopped without finish' } }],
    ['length', 'max_tokens', { provider: { stop: 'token_limit', detail: 'generation cut short at the provider\'s token limit (raw "max_tokens")' } }],
    ['content-filter', 'refusal', { signal: { kind: 'give_up', note: 'content filtered' } }],
    ['error', null, { provider: { stop: 'failed', detail: 'generation ended with finishReason error (raw null)' } }],
    ['other', 'pause_turn', { provider: { stop: 'failed', detail: 'generation ended with finishReason other (raw "pause_turn")' } }],
    ['interrupted', null, { provider: { stop: 'failed', detail: 'generation ended with finishReason interrupted (raw null)' } }],
    [null, null, { provider: { stop: 'failed', detail: 'unexpected finishReason null' } }],
    ['unknown', 'x', { provider: { stop: 'failed', detail: 'unexpected finishReason "unknown"' } }],
  ])('%j (raw %j) ends the step with %j', (finishReason, rawFinishReason, end) => {
    expect(mapAiSdkFinishReason({ finishReason, rawFinishReason, toolCalls: [] })).toEqual({ type: 'end', ...end, raw: raw(finishReason, rawFinishReason) });
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
      { type: 'end', signal: { kind: 'done', note: '3 invoices found' }, raw: raw('tool-calls', 'tool_use') },
    ]);
  });
});
