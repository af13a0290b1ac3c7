import { describe, expect, it } from 'vitest';
import {
  ProviderStopError,
  isProviderStopError,
  parseToolArguments,
  stopFromFinishInput,
  toolCallStep,
} from '../../src/providers/provider-step.js';

describe('stopFromFinishInput', () => {
  it.each([
    [{ summary: 'shipped' }, { kind: 'done', summary: 'shipped' }],
    [{ summary: null }, { kind: 'done', summary: '' }],
    [{ kind: 'done' }, { kind: 'done', summary: '' }],
    [{ kind: 'give_up', note: 'no access to the bucket' }, { kind: 'blocked', reason: 'no access to the bucket' }],
    [{ kind: 'need_help', note: 'Which tenant?' }, { kind: 'need_help', question: 'Which tenant?' }],
  ])('%j is %j', (input, stop) => {
    expect(stopFromFinishInput(input)).toEqual(stop);
  });

  it.each([[{ kind: 'need_help', note: '' }], [{ kind: 'done', summary: 'x' }], [[]], [7], [undefined]])('%j is failed, never done', (input) => {
    expect(stopFromFinishInput(input)).toMatchObject({ kind: 'failed', error: expect.stringMatching(/^invalid finish input: /) });
  });
});

describe('toolCallStep and parseToolArguments', () => {
  it('turns finish into a halt and anything else into a call, keeping the id when there is one', () => {
    expect(toolCallStep('finish', { summary: 's' }, 'id1', 'raw')).toEqual({ type: 'halt', stop: { kind: 'done', summary: 's' }, raw: 'raw' });
    expect(toolCallStep('grep', { q: 1 }, undefined, null)).toEqual({ type: 'call', tool: 'grep', args: { q: 1 }, raw: null });
  });

  it('parses JSON arguments or says why not', () => {
    expect(parseToolArguments('{"a":[1]}')).toEqual({ ok: true, args: { a: [1] } });
    expect(parseToolArguments('{"a":')).toMatchObject({ ok: false, error: expect.stringContaining('not valid JSON') });
    expect(parseToolArguments(null)).toEqual({ ok: false, error: 'tool arguments must be a JSON string, got null' });
  });
});

describe('ProviderStopError', () => {
  it('carries the raw value and is recognised across copies by its marker', () => {
    const error = new ProviderStopError('unexpected stop_reason null', null);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'ProviderStopError', raw: null });
    expect(isProviderStopError(error)).toBe(true);
    expect(isProviderStopError({ [Symbol.for('stopwise.ProviderStopError')]: true })).toBe(true);
    expect(isProviderStopError(new Error('x'))).toBe(false);
    expect(isProviderStopError(null)).toBe(false);
  });
});
