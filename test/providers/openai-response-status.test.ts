import { describe, expect, it } from 'vitest';
import { mapOpenAIResponseStatus } from '../../src/providers/index.js';

const message = { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] };
const call = (name: string, args: string, call_id = 'call_1') => ({ type: 'function_call', id: 'fc_1', call_id, name, arguments: args });
const raw = (status: string | null, incompleteReason: string | null = null) => ({ status, incompleteReason });

describe('mapOpenAIResponseStatus', () => {
  it('completed with one function call: call it; with finish: end with its signal', () => {
    expect(mapOpenAIResponseStatus({ status: 'completed', output: [message, call('search', '{"q":"x"}')] })).toEqual({
      type: 'call',
      tool: 'search',
      args: { q: 'x' },
      id: 'call_1',
      raw: raw('completed'),
    });
    expect(mapOpenAIResponseStatus({ status: 'completed', output: [call('finish', '{"kind":"done","note":"ok"}')] })).toEqual({
      type: 'end',
      signal: { kind: 'done', note: 'ok' },
      raw: raw('completed'),
    });
    expect(mapOpenAIResponseStatus({ status: 'completed', output: [call('finish', '{"kind":"need_help","note":"Which?"}')] })).toMatchObject({
      signal: { kind: 'need_help', note: 'Which?' },
    });
    expect(mapOpenAIResponseStatus({ status: 'completed', output: [call('finish', 'nope')] })).toMatchObject({
      provider: { stop: 'failed', detail: expect.stringContaining('not valid JSON') },
    });
    const finishText = { type: 'custom_tool_call', call_id: 'call_8', name: 'finish', input: '{"kind":"give_up","note":"no access"}' };
    expect(mapOpenAIResponseStatus({ status: 'completed', output: [finishText] })).toMatchObject({ signal: { kind: 'give_up', note: 'no access' } });
  });

  it('completed with a custom tool call passes the free text', () => {
    const custom = { type: 'custom_tool_call', call_id: 'call_7', name: 'shell', input: 'ls' };
    expect(mapOpenAIResponseStatus({ status: 'completed', output: [custom] })).toEqual({ type: 'call', tool: 'shell', args: 'ls', id: 'call_7', raw: raw('completed') });
  });

  it('completed with no call gives up; with several, it could not be read', () => {
    expect(mapOpenAIResponseStatus({ status: 'completed', output: [message] })).toEqual({
      type: 'end',
      signal: { kind: 'give_up', note: 'model stopped without finish' },
      raw: raw('completed'),
    });
    expect(mapOpenAIResponseStatus({ status: 'completed', output: [call('a', '{}'), call('b', '{}', 'call_2')] })).toMatchObject({
      provider: { stop: 'failed', detail: expect.stringContaining('2 tool calls') },
    });
  });

  it.each([
    ['max_output_tokens', { provider: { stop: 'token_limit', detail: "generation cut short at the provider's token limit (max_output_tokens)" } }],
    ['max_messages', { provider: { stop: 'step_limit', detail: "the provider's limit of tool calls or messages was reached (max_messages)" } }],
    ['content_filter', { signal: { kind: 'give_up', note: 'content filtered' } }],
  ])('incomplete because of %s ends as %j', (reason, end) => {
    expect(mapOpenAIResponseStatus({ status: 'incomplete', incomplete_details: { reason }, output: [call('search', '{"q"')] })).toEqual({
      type: 'end',
      ...end,
      raw: raw('incomplete', reason),
    });
  });

  it('incomplete because steered resumes', () => {
    expect(mapOpenAIResponseStatus({ status: 'incomplete', incomplete_details: { reason: 'steered' } })).toEqual({ type: 'resume', raw: raw('incomplete', 'steered') });
  });

  it.each([null, 'new_reason'])('incomplete for reason %j ends as failed', (reason) => {
    expect(mapOpenAIResponseStatus({ status: 'incomplete', incomplete_details: { reason } })).toMatchObject({ type: 'end', provider: { stop: 'failed' }, raw: raw('incomplete', reason) });
  });

  it.each([
    ['failed', 'response failed: server_error details'],
    ['cancelled', 'response was cancelled'],
    ['queued', 'response is not finished (status queued)'],
    ['in_progress', 'response is not finished (status in_progress)'],
    [null, 'unexpected response status null'],
    ['archived', 'unexpected response status "archived"'],
  ])('%j ends as failed', (status, error) => {
    const step = mapOpenAIResponseStatus({ status, error: status === 'failed' ? { code: 'server_error', message: 'server_error details' } : null });
    expect(step).toMatchObject({ type: 'end', provider: { stop: 'failed', detail: expect.stringContaining(error) }, raw: raw(status) });
  });

  it('a response without a status ends as failed', () => {
    expect(mapOpenAIResponseStatus({})).toMatchObject({ type: 'end', provider: { stop: 'failed', detail: 'unexpected response status null' }, raw: raw(null) });
  });
});
