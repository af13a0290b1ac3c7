import { describe, expect, it } from 'vitest';
import {
  ProviderStopError,
  isProviderStopError,
  mapAnthropicStopReason,
  mapStopReason,
  type AnthropicMessageLike,
} from '../../src/providers/index.js';

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
    [{ summary: 'all green' }, { kind: 'done', summary: 'all green' }],
    [{ summary: 42 }, { kind: 'done', summary: '' }],
    [{}, { kind: 'done', summary: '' }],
    [{ kind: 'done', note: 'report written' }, { kind: 'done', summary: 'report written' }],
    [{ kind: 'done', note: '' }, { kind: 'done', summary: '' }],
    [{ kind: 'give_up', note: 'portal offline' }, { kind: 'blocked', reason: 'portal offline' }],
    [{ kind: 'need_help', note: 'Approve the refund?' }, { kind: 'need_help', question: 'Approve the refund?' }],
  ])('tool_use whose one block is finish with %j halts as %j', (input, stop) => {
    expect(mapAnthropicStopReason(message('tool_use', [toolUse('finish', input)]))).toEqual({ type: 'halt', stop, raw: 'tool_use' });
  });

  it.each([
    [{ kind: 'give_up', note: '' }, /invalid finish input: note/],
    [{ kind: 'finished', note: 'x' }, /invalid finish input: kind/],
    [{ kind: 'done', note: 'x', extra: true }, /unknown field "extra"/],
    ['done', /invalid finish input: input/],
    [null, /invalid finish input: input/],
  ])('invalid finish input %j halts as failed', (input, error) => {
    const step = mapAnthropicStopReason(message('tool_use', [toolUse('finish', input)]));
    expect(step).toMatchObject({ type: 'halt', stop: { kind: 'failed', error: expect.stringMatching(error) }, raw: 'tool_use' });
  });

  it.each([
    ['zero', [text]],
    ['several', [toolUse('search', {}), toolUse('finish', { summary: 'x' }, 'toolu_02')]],
  ])('tool_use with %s tool_use blocks throws', (_count, content) => {
    expect(() => mapAnthropicStopReason(message('tool_use', content))).toThrow(/disable_parallel_tool_use/);
  });

  it('end_turn halts blocked, also with empty content', () => {
    const expected = { type: 'halt', stop: { kind: 'blocked', reason: 'model stopped without finish' }, raw: 'end_turn' };
    expect(mapAnthropicStopReason(message('end_turn'))).toEqual(expected);
    expect(mapAnthropicStopReason(message('end_turn', []))).toEqual(expected);
  });

  it.each(['max_tokens', 'model_context_window_exceeded'])('%s halts out of budget (tokens), even with a truncated tool_use', (reason) => {
    expect(mapAnthropicStopReason(message(reason, [toolUse('deleteFiles', { path: 'sr' })]))).toEqual({
      type: 'halt',
      stop: { kind: 'out_of_budget', limit: 'tokens' },
      raw: reason,
    });
  });

  it('refusal halts blocked, with stop_details when given', () => {
    expect(mapAnthropicStopReason(message('refusal', [], { stop_details: null }))).toEqual({
      type: 'halt',
      stop: { kind: 'blocked', reason: 'model refused' },
      raw: 'refusal',
    });
    const details = { type: 'refusal', category: 'cyber', explanation: 'exploit development' };
    expect(mapAnthropicStopReason(message('refusal', [], { stop_details: details }))).toEqual({
      type: 'halt',
      stop: { kind: 'blocked', reason: 'model refused', refusal: { category: 'cyber', explanation: 'exploit development' } },
      raw: 'refusal',
    });
  });

  it('pause_turn resumes', () => {
    expect(mapAnthropicStopReason(message('pause_turn', [{ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }]))).toEqual({
      type: 'resume',
      raw: 'pause_turn',
    });
  });

  it('stop_sequence halts blocked when a sequence was generated, and throws with none', () => {
    expect(mapAnthropicStopReason(message('stop_sequence', [text], { stop_sequence: '</answer>' }))).toMatchObject({
      type: 'halt',
      stop: { kind: 'blocked', reason: expect.stringContaining('"</answer>"') },
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
    expect(isProviderStopError(thrown)).toBe(true);
    expect(thrown).toMatchObject({ name: 'ProviderStopError', raw: reason, message: expect.stringContaining(JSON.stringify(reason)) });
    expect(isProviderStopError(new Error('x'))).toBe(false);
  });

  it('is also exported as mapStopReason', () => {
    expect(mapStopReason).toBe(mapAnthropicStopReason);
  });
});
