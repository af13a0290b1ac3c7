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
    ['{"kind":"done","note":"fixed"}', { kind: 'done', summary: 'fixed' }],
    ['{"kind":"give_up","note":"no access"}', { kind: 'blocked', reason: 'no access' }],
    ['{"kind":"need_help","note":"Which region?"}', { kind: 'need_help', question: 'Which region?' }],
    ['{"kind":"give_up","note":""}', { kind: 'failed', error: expect.stringContaining('note') }],
    ['{"kind":"done"', { kind: 'failed', error: expect.stringContaining('not valid JSON') }],
  ])('tool_calls with finish %s', (args, stop) => {
    expect(mapOpenAIChatFinishReason(choice('tool_calls', [fn('finish', args)]) as never)).toEqual({ type: 'halt', stop, raw: 'tool_calls' });
  });

  it('tool_calls with zero or several calls halts as failed', () => {
    expect(mapOpenAIChatFinishReason(choice('tool_calls', []) as never)).toMatchObject({ stop: { kind: 'failed', error: expect.stringContaining('0 tool calls') } });
    expect(mapOpenAIChatFinishReason(choice('tool_calls', [fn('a', '{}'), fn('b', '{}', 'call_2')]) as never)).toMatchObject({
      stop: { kind: 'failed', error: expect.stringContaining('parallel_tool_calls: false') },
    });
  });

  it('a custom tool call passes its free-text input', () => {
    const custom = { type: 'custom', id: 'call_9', custom: { name: 'shell', input: 'ls -la' } };
    expect(mapOpenAIChatFinishReason(choice('tool_calls', [custom]) as never)).toEqual({ type: 'call', tool: 'shell', args: 'ls -la', id: 'call_9', raw: 'tool_calls' });
  });

  it('stop halts blocked, or runs the one call some compatible servers report with stop', () => {
    expect(mapOpenAIChatFinishReason(choice('stop') as never)).toEqual({
      type: 'halt',
      stop: { kind: 'blocked', reason: 'model stopped without finish' },
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
    expect(mapOpenAIChatFinishReason(choice('function_call') as never)).toMatchObject({ stop: { kind: 'failed' } });
  });

  it('length halts out of budget (tokens), content_filter blocked', () => {
    expect(mapOpenAIChatFinishReason(choice('length', [fn('search', '{"q":')]) as never)).toEqual({
      type: 'halt',
      stop: { kind: 'out_of_budget', limit: 'tokens' },
      raw: 'length',
    });
    expect(mapOpenAIChatFinishReason(choice('content_filter') as never)).toEqual({
      type: 'halt',
      stop: { kind: 'blocked', reason: 'content filtered' },
      raw: 'content_filter',
    });
  });

  it.each([null, 'end_turn', ''])('%j halts as failed with the raw value, never done', (reason) => {
    expect(mapOpenAIChatFinishReason({ finish_reason: reason, message: null })).toEqual({
      type: 'halt',
      stop: { kind: 'failed', error: `unexpected finish_reason ${JSON.stringify(reason)}` },
      raw: reason,
    });
  });
});
