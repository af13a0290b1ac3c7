import { describe, expect, it } from 'vitest';
import { stallStepsFromAnthropic } from '../../src/providers/anthropic-stall-steps.js';

describe('stallStepsFromAnthropic', () => {
  it('pairs each tool_use with its tool_result', () => {
    const assistant = { content: [{ type: 'text', text: 'run it' }, { type: 'tool_use', id: 't1', name: 'bash', input: { command: 'ls' } }] };
    const reply = { content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'a.txt' }], is_error: false }] };
    expect(stallStepsFromAnthropic(assistant, reply)).toEqual([{ tool: 'bash', input: { command: 'ls' }, output: 'a.txt', error: false }]);
    expect(stallStepsFromAnthropic(assistant)).toEqual([{ tool: 'bash', input: { command: 'ls' } }]);
  });

  it('makes a message step when no tool was called', () => {
    expect(stallStepsFromAnthropic({ content: [{ type: 'text', text: 'thinking' }] })).toEqual([{ text: 'thinking' }]);
    expect(stallStepsFromAnthropic({ content: 'hi' }, { content: 'go on' })).toEqual([{ text: 'hi', output: 'go on' }]);
  });
});
