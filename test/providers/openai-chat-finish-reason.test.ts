import { describe, expect, it } from 'vitest';
import { mapOpenAIChatFinishReason } from '../../src/providers/index.js';

const fn = (name: string, args: string, id = 'call_1') => ({ type: 'function', id, function: { name, arguments: args } });
const choice = (finish_reason: string | null, tool_calls?: unknown[], extra: Record<string, unknown> = {}) => ({
  finish_reason,
  message: { content: null, ...(tool_calls === undefined ? {} : { tool_calls }), ...extra },
});

describe('mapOpenAIChatFinishReason', () => {
  it('tool_calls with one function call: call it with the parsed arguments', () => {
    expect(mapOpenAIChatFinishReason(choice('tool_calls', [fn('search', '{"q":"invoices"}')]) as never)).toEqual({
      type: 'call',
      tool: 'search',
      args: { q: 'invoices' },
      id: 'call_1',
      raw: 'tool_calls',
    });
  });

  it.each([
    ['{"kind":"done","note":"fixed"}', { signal: { kind: 'done', note: 'fixed' } }],
    ['{"kind":"give_up","note":"no access"}', { signal: { kind: 'give_up', note: 'no access' } }],
    ['{"kind":"need_help","note":"Which region?"}', { signal: { kind: 'need_help', note: 'Which region?' } }],
    ['{"kind":"give_up","note":""}', { provider: { stop: 'failed', detail: expect.stringContaining('note') } }],
    ['{"kind":"done"', { provider: { stop: 'failed', detail: expect.stringContaining('not valid JSON') } }],
  ])('tool_calls with finish %s', (args, end) => {
    expect(mapOpenAIChatFinishReason(choice('tool_calls', [fn('finish', args)]) as never)).toEqual({ type: 'end', ...end, raw: 'tool_calls' });
  });

  it('tool_calls with zero or several calls ends as a generation that could not be read', () => {
    expect(mapOpenAIChatFinishReason(choice('tool_calls', []) as never)).toMatchObject({ type: 'end', provider: { stop: 'failed', detail: expect.stringContaining('0 tool calls') } });
    expect(mapOpenAIChatFinishReason(choice('tool_calls', [fn('a', '{}'), fn('b', '{}', 'call_2')]) as never)).toMatchObject({
      provider: { stop: 'failed', detail: expect.stringContaining('parallel_tool_calls: false') },
    });
  });

  it('a custom tool call passes its free-text input', () => {
    const custom = { type: 'custom', id: 'call_9', custom: { name: 'shell', input: 'ls -la' } };
    expect(mapOpenAIChatFinishReason(choice('tool_calls', [custom]) as never)).toEqual({ type: 'call', tool: 'shell', args: 'ls -la', id: 'call_9', raw: 'tool_calls' });
  });

  it('stop gives up, or runs the one call some compatible servers report with stop', () => {
    expect(mapOpenAIChatFinishReason(choice('stop') as never)).toEqual({
      type: 'end',
      signal: { kind: 'give_up', note: 'model stopped without finish' },
      raw: 'stop',
    });
    expect(mapOpenAIChatFinishReason(choice('stop', [fn('search', '{}')]) as never)).toMatchObject({ type: 'call', tool: 'search', raw: 'stop' });
  });

  it('function_call (deprecated) calls the function', () => {
    expect(mapOpenAIChatFinishReason(choice('function_call', undefined, { function_call: { name: 'search', arguments: '{"q":1}' } }) as never)).toEqual({
      type: 'call',
      tool: 'search',
      args: { q: 1 },
      raw: 'function_call',
    });
    expect(mapOpenAIChatFinishReason(choice('function_call') as never)).toMatchObject({ provider: { stop: 'failed', detail: 'finish_reason function_call without a function_call' } });
  });

  it("length ends at the provider's token limit, content_filter gives up", () => {
    expect(mapOpenAIChatFinishReason(choice('length', [fn('search', '{"q":')]) as never)).toEqual({
      type: 'end',
      provider: { stop: 'token_limit', detail: "generation cut short at the provider's token limit (length)" },
      raw: 'length',
    });
    expect(mapOpenAIChatFinishReason(choice('content_filter') as never)).toEqual({
      type: 'end',
      signal: { kind: 'give_up', note: 'content filtered' },
      raw: 'content_filter',
    });
  });

  it('a tool call of an unknown type ends as failed', () => {
    expect(mapOpenAIChatFinishReason(choice('tool_calls', [{ type: 'mystery', id: 'x' }]) as never)).toMatchObject({ provider: { stop: 'failed', detail: 'tool call of unknown type "mystery"' } });
  });

  it.each([null, 'end_turn', ''])('%j ends as failed with the raw value, never done', (reason) => {
    expect(mapOpenAIChatFinishReason({ finish_reason: reason, message: null })).toEqual({
      type: 'end',
      provider: { stop: 'failed', detail: `unexpected finish_reason ${JSON.stringify(reason)}` },
      raw: reason,
    });
  });
});
