import { describe, expect, it } from 'vitest';
import { toOpenHandsEvents, toStallStep, type CorpusStep } from '../../../bench/stall/corpus.js';

const step = (fields: Partial<CorpusStep>): CorpusStep => ({ i: 0, tool: 'bash', action: 'bash: ls', observation: 'a', exit_code: 0, error: false, ...fields });

describe('corpus steps', () => {
  it('turns shell steps, messages and user messages into stall steps', () => {
    expect(toStallStep(step({}))).toEqual({ tool: 'bash', input: 'ls', output: 'a', exitCode: 0, error: false });
    expect(toStallStep(step({ tool: 'edit', action: 'edit 1:1\nx\nend_of_edit', exit_code: null, error: null }))).toEqual({
      tool: 'edit',
      input: 'edit 1:1\nx\nend_of_edit',
      output: 'a',
    });
    expect(toStallStep(step({ tool: 'format_error', action: '(no single bash block) hmm', observation: 'Please...' }))).toMatchObject({
      text: '(no single bash block) hmm',
      output: 'Please...',
    });
    expect(toStallStep(step({ tool: 'message', action: 'message(user): Hello' }))).toBe('user');
    expect(toStallStep(step({ tool: 'message', action: 'message(agent): Hi', observation: '' }))).toMatchObject({ text: 'Hi' });
  });

  it('gives OpenHands a shell action and its output per step', () => {
    expect(toOpenHandsEvents(step({})).map((e) => e.type)).toEqual(['CmdRunAction', 'CmdOutputObservation']);
  });
});
