import { describe, expect, it } from 'vitest';
import { stallStepsFromOpenAIChat } from '../../src/providers/openai-chat-stall-steps.js';

describe('stallStepsFromOpenAIChat', () => {
  it('parses arguments and pairs each call with its tool message', () => {
    const assistant = {
      content: null,
      tool_calls: [
        { id: 'c1', function: { name: 'read', arguments: '{"path":"a"}' } },
        { id: 'c2', function: { name: 'run', arguments: 'not json' } },
      ],
    };
    expect(stallStepsFromOpenAIChat(assistant, [{ tool_call_id: 'c1', content: 'text of a' }])).toEqual([
      { tool: 'read', input: { path: 'a' }, output: 'text of a' },
      { tool: 'run', input: 'not json' },
    ]);
  });

  it('makes a message step when no tool was called', () => {
    expect(stallStepsFromOpenAIChat({ content: 'done?' })).toEqual([{ text: 'done?' }]);
  });
});
