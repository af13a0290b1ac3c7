import { describe, expect, it } from 'vitest';
import { stallStepsFromAiSdkStep } from '../../../src/integrations/ai-sdk/ai-sdk-stall-steps.js';

describe('stallStepsFromAiSdkStep', () => {
  it('reads results and tool-error parts from the content', () => {
    const step = {
      content: [
        { type: 'tool-call', toolCallId: 'a', toolName: 'search', input: { q: 'x' } },
        { type: 'tool-call', toolCallId: 'b', toolName: 'fetch', input: { url: 'u' } },
        { type: 'tool-result', toolCallId: 'a', toolName: 'search', input: { q: 'x' }, output: { hits: 2 } },
        { type: 'tool-error', toolCallId: 'b', toolName: 'fetch', input: { url: 'u' }, error: new Error('503 Service Unavailable') },
      ],
    };
    expect(stallStepsFromAiSdkStep(step)).toEqual([
      { tool: 'search', input: { q: 'x' }, output: '{"hits":2}', error: false },
      { tool: 'fetch', input: { url: 'u' }, output: 'Error: 503 Service Unavailable', error: true },
    ]);
  });

  it('falls back on toolCalls and toolResults, and makes a message step without calls', () => {
    expect(stallStepsFromAiSdkStep({ toolCalls: [{ toolCallId: 'a', toolName: 't', input: 1 }], toolResults: [{ toolCallId: 'a', output: 'ok' }] })).toEqual([
      { tool: 't', input: 1, output: 'ok', error: false },
    ]);
    expect(stallStepsFromAiSdkStep({ text: 'plan', content: [{ type: 'text' }] })).toEqual([{ text: 'plan' }]);
    expect(stallStepsFromAiSdkStep({})).toEqual([{ text: '' }]);
  });

  it('keeps a call whose result is not in the step, and writes outputs that are not strings as text', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const step = {
      content: [
        { type: 'tool-call', toolCallId: 'a', toolName: 'approve', input: { id: 7 } },
        { type: 'tool-call', toolCallId: 'b', toolName: 'count', input: {} },
        { type: 'tool-call', toolCallId: 'c', toolName: 'walk', input: {} },
        { type: 'tool-result', toolCallId: 'b', output: 42 },
        { type: 'tool-result', toolCallId: 'c', output: cyclic },
      ],
    };
    expect(stallStepsFromAiSdkStep(step)).toEqual([
      { tool: 'approve', input: { id: 7 } },
      { tool: 'count', input: {}, output: '42', error: false },
      { tool: 'walk', input: {}, output: '[object Object]', error: false },
    ]);
  });
});
