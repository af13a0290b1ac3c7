import { describe, expect, it } from 'vitest';
import { mapOpenAIResponseStatus } from '../../src/providers/index.js';

const message = { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] };
const call = (name: string, args: string, call_id = 'call_1') => ({ type: 'function_call', id: 'fc_1', call_id, name, arguments: args });
const raw = (status: string | null, incompleteReason: string | null = null) => ({ status, incompleteReason });

describe('mapOpenAIResponseStatus', () => {
  it('completed with one function call: call it; with finish: halt', () => {
    expect(mapOpenAIResponseStatus({ status: 'completed', output: [message, call('search', '{"q":"x"}')] })).toEqual({
      type: 'call',
      tool: 'search',
      args: { q: 'x' },
      id: 'call_1',
      raw: raw('completed'),
    });
    expect(mapOpenAIResponseStatus({ status: 'completed', output: [call('finish', '{"kind":"done","note":"ok"}')] })).toEqual({
      type: 'halt',
      stop: { kind: 'done', summary: 'ok' },
      raw: raw('completed'),
    });
    expect(mapOpenAIResponseStatus({ status: 'completed', output: [call('finish', '{"kind":"need_help","note":"Which?"}')] })).toMatchObject({
      stop: { kind: 'need_help', question: 'Which?' },
    });
    expect(mapOpenAIResponseStatus({ status: 'completed', output: [call('finish', 'nope')] })).toMatchObject({
      stop: { kind: 'failed', error: expect.stringContaining('not valid JSON') },
    });
  });

  it('completed with a custom tool call passes the free text', () => {
    const custom = { type: 'custom_tool_call', call_id: 'call_7', name: 'shell', input: 'ls' };
    expect(mapOpenAIResponseStatus({ status: 'completed', output: [custom] })).toEqual({ type: 'call', tool: 'shell', args: 'ls', id: 'call_7', raw: raw('completed') });
  });

  it('completed with no call halts blocked; with several, failed', () => {
    expect(mapOpenAIResponseStatus({ status: 'completed', output: [message] })).toEqual({
      type: 'halt',
      stop: { kind: 'blocked', reason: 'model stopped without finish' },
      raw: raw('completed'),
    });
    expect(mapOpenAIResponseStatus({ status: 'completed', output: [call('a', '{}'), call('b', '{}', 'call_2')] })).toMatchObject({
      stop: { kind: 'failed', error: expect.stringContaining('2 tool calls') },
    });
  });

  it.each([
    ['max_output_tokens', { kind: 'out_of_budget', limit: 'tokens' }],
    ['max_messages', { kind: 'out_of_budget', limit: 'steps' }],
    ['content_filter', { kind: 'blocked', reason: 'content filtered' }],
  ])('incomplete because of %s halts as %j', (reason, stop) => {
    expect(mapOpenAIResponseStatus({ status: 'incomplete', incomplete_details: { reason }, output: [call('search', '{"q"')] })).toEqual({
      type: 'halt',
      stop,
      raw: raw('incomplete', reason),
    });
  });

  it('incomplete because steered resumes', () => {
    expect(mapOpenAIResponseStatus({ status: 'incomplete', incomplete_details: { reason: 'steered' } })).toEqual({ type: 'resume', raw: raw('incomplete', 'steered') });
  });

  it.each([null, 'new_reason'])('incomplete for reason %j halts as failed', (reason) => {
    expect(mapOpenAIResponseStatus({ status: 'incomplete', incomplete_details: { reason } })).toMatchObject({ stop: { kind: 'failed' }, raw: raw('incomplete', reason) });
  });

  it.each([
    ['failed', 'response failed: server_error details'],
    ['cancelled', 'response was cancelled'],
    ['queued', 'response is not finished (status queued)'],
    ['in_progress', 'response is not finished (status in_progress)'],
    [null, 'unexpected response status null'],
    ['archived', 'unexpected response status "archived"'],
  ])('%j halts as failed', (status, error) => {
    const step = mapOpenAIResponseStatus({ status, error: status === 'failed' ? { code: 'server_error', message: 'server_error details' } : null });
    expect(step).toMatchObject({ type: 'halt', stop: { kind: 'failed', error: expect.stringContaining(error) }, raw: raw(status) });
  });

  it('a response without a status halts as failed', () => {
    expect(mapOpenAIResponseStatus({})).toMatchObject({ stop: { kind: 'failed' }, raw: raw(null) });
  });
});
