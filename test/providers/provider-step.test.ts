import { describe, expect, it } from 'vitest';
import { giveUpStep, parseToolArguments, ProviderStopError, providerStep, STOPPED_WITHOUT_FINISH, toolCallStep } from '../../src/providers/provider-step.js';

describe('toolCallStep: the finish tool input as the end of the step', () => {
  it.each([
    [{ summary: 'shipped' }, { kind: 'done', note: 'shipped' }],
    [{ summary: null }, { kind: 'done', note: '' }],
    [{ kind: 'done' }, { kind: 'done', note: '' }],
    [{ kind: 'give_up', note: 'no access to the bucket' }, { kind: 'give_up', note: 'no access to the bucket' }],
    [{ kind: 'need_help', note: 'Which tenant?' }, { kind: 'need_help', note: 'Which tenant?' }],
  ])('%j is the signal %j', (input, signal) => {
    expect(toolCallStep('finish', input, 'id1', 'raw')).toEqual({ type: 'end', signal, raw: 'raw' });
  });

  it.each([[{ kind: 'need_help', note: '' }], [{ kind: 'done', summary: 'x' }], [[]], [7], [undefined]])('%j could not be read: failed, never done', (input) => {
    const step = toolCallStep('finish', input, undefined, 'raw');
    expect(step).toEqual({ type: 'end', provider: { stop: 'failed', detail: expect.stringMatching(/^invalid finish input: /) }, raw: 'raw' });
  });
});

describe('toolCallStep, providerStep, giveUpStep and parseToolArguments', () => {
  it('turns any tool but finish into a call, keeping the id when there is one', () => {
    expect(toolCallStep('grep', { q: 1 }, undefined, null)).toEqual({ type: 'call', tool: 'grep', args: { q: 1 }, raw: null });
    expect(toolCallStep('grep', {}, 'call_1', null)).toEqual({ type: 'call', tool: 'grep', args: {}, id: 'call_1', raw: null });
  });

  it("ends a step on the provider's own stop, or with the model giving up", () => {
    expect(providerStep('step_limit', 'too many calls', 'raw')).toEqual({ type: 'end', provider: { stop: 'step_limit', detail: 'too many calls' }, raw: 'raw' });
    expect(giveUpStep(STOPPED_WITHOUT_FINISH, 'stop')).toEqual({ type: 'end', signal: { kind: 'give_up', note: 'model stopped without finish' }, raw: 'stop' });
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
    expect(ProviderStopError.isInstance(error)).toBe(true);
    expect(ProviderStopError.isInstance({ [Symbol.for('stopwise.ProviderStopError')]: true })).toBe(true);
    expect(ProviderStopError.isInstance(new Error('x'))).toBe(false);
    expect(ProviderStopError.isInstance(null)).toBe(false);
  });
});
