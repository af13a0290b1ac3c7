import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseFinishSignal } from '../../src/providers/parse-finish-signal.js';

describe('parseFinishSignal', () => {
  it.each([
    [{ kind: 'done', note: 'all three sources cited' }, { kind: 'done', note: 'all three sources cited' }],
    [{ kind: 'done', note: '' }, { kind: 'done', note: '' }],
    [{ kind: 'done' }, { kind: 'done', note: '' }],
    [{ kind: 'give_up', note: 'portal offline' }, { kind: 'give_up', note: 'portal offline' }],
    [{ kind: 'need_help', note: 'Approve the refund?' }, { kind: 'need_help', note: 'Approve the refund?' }],
  ])('accepts %j', (input, signal) => {
    expect(parseFinishSignal(input)).toEqual({ ok: true, signal });
  });

  it.each([
    [{ kind: 'give_up', note: '' }, 'note', /note: a give_up needs a non-empty note/],
    [{ kind: 'give_up', note: '   \n' }, 'note', /non-empty/],
    [{ kind: 'give_up' }, 'note', /give_up needs a non-empty note/],
    [{ kind: 'need_help' }, 'note', /need_help needs a non-empty note \(the question/],
    [{ kind: 'need_help', note: 7 }, 'note', /note: expected a string, got 7/],
    [{ kind: 'done', note: null }, 'note', /note: expected a string, got null/],
    [{ kind: 'finished', note: 'x' }, 'kind', /kind: expected one of "done", "give_up", "need_help", got "finished"/],
    [{ note: 'x' }, 'kind', /got nothing/],
    [{ kind: 3, note: 'x' }, 'kind', /got 3/],
    [{ kind: 'done', note: 'x', summary: 'y' }, 'summary', /unknown field "summary"/],
    [null, 'input', /input: expected an object \{ kind, note \}, got null/],
    ['done', 'input', /got "done"/],
    [['done', 'x'], 'input', /got an array/],
    [undefined, 'input', /got undefined/],
  ])('rejects %j, naming %s', (input, field, message) => {
    const result = parseFinishSignal(input);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.field).toBe(field);
    expect(result.error.message).toMatch(message);
  });

  it('never throws, and never turns garbage into done (property)', () => {
    fc.assert(
      fc.property(fc.anything(), (input) => {
        const result = parseFinishSignal(input);
        if (result.ok) {
          expect(typeof input === 'object' && input !== null && (input as { kind?: unknown }).kind === result.signal.kind).toBe(true);
        } else {
          expect(result.error.message).toContain(result.error.field === 'input' ? 'input' : result.error.field);
        }
      }),
    );
  });
});
