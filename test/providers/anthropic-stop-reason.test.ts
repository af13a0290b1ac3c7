import { describe, expect, it } from 'vitest';
import { mapAnthropicStopReason, type AnthropicMessageLike } from '../../src/providers/anthropic-stop-reason.js';
import { ProviderStopError } from '../../src/providers/index.js';

const text = { type: 'text', text: 'Looking into it.' };
const toolUse = (name: string, input: unknown, id = 'toolu_01') => ({ type: 'tool_use', id, name, input });
const message = (stop_reason: string | null, content: AnthropicMessageLike['content'] = [text], extra: Partial<AnthropicMessageLike> = {}) => ({
  stop_reason,
  content,
  ...extra,
});

describe('mapAnthropicStopReason: the table of behaviour §6', () => {
  it('tool_use with one block that is not finish: call that tool with its input', () => {
    expect(mapAnthropicStopReason(message('tool_use', [text, toolUse('search', { q: 'invoices' })]))).toEqual({
      type: 'call',
      tool: 'search',
      args: { q: 'invoices' },
      id: 'toolu_01',
      raw: 'tool_use',
    });
  });

  it.each([
    [{ summary: 'all green' }, { kind: 'done', note: 'all green' }],
    [{ summary: 42 }, { kind: 'done', note: '' }],
    [{}, { kind: 'done', note: '' }],
    [{ kind: 'done', note: 'report written' }, { kind: 'done', note: 'report written' }],
    [{ kind: 'done', note: '' }, { kind: 'done', note: '' }],
    [{ kind: 'give_up', note: 'portal offline' }, { kind: 'give_up', note: 'portal offline' }],
    [{ kind: 'need_help', note: 'Approve the refund?' }, { kind: 'need_help', note: 'Approve the refund?' }],
  ])('tool_use whose one block is finish with %j ends with the signal %j', (input, signal) => {
    expect(mapAnthropicStopReason(message('tool_use', [toolUse('finish', input)]))).toEqual({ type: 'end', signal, raw: 'tool_use' });
  });

  it.each([
    [{ kind: 'give_up', note: '' }, /invalid finish input: note/],
    [{ kind: 'finished', note: 'x' }, /invalid finish input: kind/],
    [{ kind: 'done', note: 'x', extra: true }, /unknown field "extra"/],
    ['done', /invalid finish input: input/],
    [null, /invalid finish input: input/],
  ])('invalid finish input %j ends as a generation that could not be read', (input, error) => {
    const step = mapAnthropicStopReason(message('tool_use', [toolUse('finish', input)]));
    expect(step).toEqual({ type: 'end', provider: { stop: 'failed', detail: expect.stringMatching(error) }, raw: 'tool_use' });
    expect(step).not.toHaveProperty('signal');
  });

  it.each([
    ['zero', [text]],
    ['several', [toolUse('search', {}), toolUse('finish', { summary: 'x' }, 'toolu_02')]],
  ])('tool_use with %s tool_use blocks throws', (_count, content) => {
    expect(() => mapAnthropicStopReason(message('tool_use', content))).toThrow(/disable_parallel_tool_use/);
  });

  it('end_turn gives up (the model stopped without finish), also with empty content', () => {
    const expected = { type: 'end', signal: { kind: 'give_up', note: 'model stopped without finish' }, raw: 'end_turn' };
    expect(mapAnthropicStopReason(message('end_turn'))).toEqual(expected);
    expect(mapAnthropicStopReason(message('end_turn', []))).toEqual(expected);
  });

  it.each(['max_tokens', 'model_context_window_exceeded'])("%s ends at the provider's token limit, even with a truncated tool_use", (reason) => {
    expect(mapAnthropicStopReason(message(reason, [toolUse('deleteFiles', { path: 'sr' })]))).toEqual({
      type: 'end',
      provider: { stop: 'token_limit', detail: `generation cut short at the provider's token limit (${reason})` },
      raw: reason,
    });
  });

  it('refusal gives up, saying the category and explanation of stop_details when given', () => {
    expect(mapAnthropicStopReason(message('refusal', [], { stop_details: null }))).toEqual({
      type: 'end',
      signal: { kind: 'give_up', note: 'model refused' },
      raw: 'refusal',
    });
    const details = { type: 'refusal', category: 'cyber', explanation: 'exploit development' };
    expect(mapAnthropicStopReason(message('refusal', [], { stop_details: details }))).toEqual({
      type: 'end',
      signal: { kind: 'give_up', note: 'model refused (cyber: exploit development)' },
      raw: 'refusal',
    });
    expect(mapAnthropicStopReason(message('refusal', [], { stop_details: { type: 'refusal', category: null, explanation: 'policy' } }))).toMatchObject({
      signal: { kind: 'give_up', note: 'model refused (policy)' },
    });
  });

  it('pause_turn resumes', () => {
    expect(mapAnthropicStopReason(message('pause_turn', [{ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }]))).toEqual({
      type: 'resume',
      raw: 'pause_turn',
    });
  });

  it('stop_sequence gives up when a sequence was generated, and throws with none', () => {
    expect(mapAnthropicStopReason(message('stop_sequence', [text], { stop_sequence: '</answer>' }))).toEqual({
      type: 'end',
      signal: { kind: 'give_up', note: 'model stopped at stop sequence "</answer>" without finish' },
      raw: 'stop_sequence',
    });
    expect(() => mapAnthropicStopReason(message('stop_sequence', [text], { stop_sequence: null }))).toThrow(ProviderStopError);
  });

  it.each([null, 'compaction', 'something_new'])('%s throws a ProviderStopError carrying the raw value', (reason) => {
    let thrown: unknown;
    try {
      mapAnthropicStopReason(message(reason));
    } catch (error) {
      thrown = error;
    }
    expect(ProviderStopError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({ name: 'ProviderStopError', raw: reason, message: expect.stringContaining(JSON.stringify(reason)) });
  });
});
