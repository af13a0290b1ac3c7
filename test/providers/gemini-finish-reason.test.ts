import { FinishReason } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { mapGeminiFinishReason } from '../../src/providers/index.js';

/** Every finishReason value listed in the contracts (late 2026). */
const CONTRACT_VALUES = [
  'FINISH_REASON_UNSPECIFIED', 'STOP', 'MAX_TOKENS', 'SAFETY', 'RECITATION', 'LANGUAGE', 'OTHER', 'BLOCKLIST',
  'PROHIBITED_CONTENT', 'SPII', 'MALFORMED_FUNCTION_CALL', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_OTHER',
  'NO_IMAGE', 'IMAGE_RECITATION', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS', 'MISSING_THOUGHT_SIGNATURE',
  'MALFORMED_RESPONSE', 'ESCALATION', 'PUP_LIMITED_DISABLED', 'CONTINUATION', 'MODEL_ARMOR',
] as const;

const EXPECTED: Record<(typeof CONTRACT_VALUES)[number], unknown> = {
  FINISH_REASON_UNSPECIFIED: { provider: { stop: 'failed' } },
  STOP: { signal: { kind: 'give_up', note: 'model stopped without finish' } },
  MAX_TOKENS: { provider: { stop: 'token_limit' } },
  SAFETY: { signal: { kind: 'give_up', note: 'content blocked (SAFETY)' } },
  RECITATION: { signal: { kind: 'give_up', note: 'content blocked (RECITATION)' } },
  LANGUAGE: { signal: { kind: 'give_up', note: 'unsupported language (LANGUAGE)' } },
  OTHER: { provider: { stop: 'failed' } },
  BLOCKLIST: { signal: { kind: 'give_up', note: 'content blocked (BLOCKLIST)' } },
  PROHIBITED_CONTENT: { signal: { kind: 'give_up', note: 'content blocked (PROHIBITED_CONTENT)' } },
  SPII: { signal: { kind: 'give_up', note: 'content blocked (SPII)' } },
  MALFORMED_FUNCTION_CALL: { provider: { stop: 'failed' } },
  IMAGE_SAFETY: { signal: { kind: 'give_up', note: 'content blocked (IMAGE_SAFETY)' } },
  IMAGE_PROHIBITED_CONTENT: { signal: { kind: 'give_up', note: 'content blocked (IMAGE_PROHIBITED_CONTENT)' } },
  IMAGE_OTHER: { provider: { stop: 'failed' } },
  NO_IMAGE: { provider: { stop: 'failed' } },
  IMAGE_RECITATION: { signal: { kind: 'give_up', note: 'content blocked (IMAGE_RECITATION)' } },
  UNEXPECTED_TOOL_CALL: { provider: { stop: 'failed' } },
  TOO_MANY_TOOL_CALLS: { provider: { stop: 'step_limit' } },
  MISSING_THOUGHT_SIGNATURE: { provider: { stop: 'failed' } },
  MALFORMED_RESPONSE: { provider: { stop: 'failed' } },
  ESCALATION: { provider: { stop: 'failed' } },
  PUP_LIMITED_DISABLED: { provider: { stop: 'failed' } },
  CONTINUATION: undefined,
  MODEL_ARMOR: { signal: { kind: 'give_up', note: 'content blocked (MODEL_ARMOR)' } },
};

const text = { parts: [{ text: 'Here is what I found.' }] };

describe('mapGeminiFinishReason', () => {
  it.each(CONTRACT_VALUES)('%s maps as in the table of docs/providers.md, keeping the raw value', (reason) => {
    const step = mapGeminiFinishReason({ finishReason: reason, content: text });
    expect(step.raw).toBe(reason);
    if (reason === 'CONTINUATION') expect(step).toEqual({ type: 'resume', raw: reason });
    else expect(step).toMatchObject({ type: 'end', ...(EXPECTED[reason] as object) });
    if (step.type === 'end' && step.provider !== undefined) expect(step.provider.detail).toContain(reason);
  });

  it('covers every value the @google/genai SDK knows', () => {
    for (const value of Object.values(FinishReason)) expect(CONTRACT_VALUES).toContain(value);
  });

  it('STOP with one functionCall calls it; finish ends the step with its signal', () => {
    const call = (name: string, args?: unknown) => ({ finishReason: 'STOP', content: { parts: [{ text: 'ok' }, { functionCall: { id: 'fc1', name, args } }] } });
    expect(mapGeminiFinishReason(call('search', { q: 'x' }))).toEqual({ type: 'call', tool: 'search', args: { q: 'x' }, id: 'fc1', raw: 'STOP' });
    expect(mapGeminiFinishReason(call('listFiles'))).toMatchObject({ type: 'call', tool: 'listFiles', args: {} });
    expect(mapGeminiFinishReason(call('finish', { kind: 'give_up', note: 'no data' }))).toEqual({ type: 'end', signal: { kind: 'give_up', note: 'no data' }, raw: 'STOP' });
    expect(mapGeminiFinishReason(call('finish', { summary: 'done it' }))).toMatchObject({ signal: { kind: 'done', note: 'done it' } });
    expect(mapGeminiFinishReason(call('finish'))).toMatchObject({ provider: { stop: 'failed', detail: expect.stringContaining('invalid finish input') } });
  });

  it('STOP with several function calls, or one without a name, ends as a generation that could not be read', () => {
    const parts = [{ functionCall: { name: 'a', args: {} } }, { functionCall: { name: 'b', args: {} } }];
    expect(mapGeminiFinishReason({ finishReason: 'STOP', content: { parts } })).toMatchObject({ provider: { stop: 'failed', detail: expect.stringContaining('2 function calls') } });
    expect(mapGeminiFinishReason({ finishReason: 'STOP', content: { parts: [{ functionCall: { args: {} } }] } })).toMatchObject({ provider: { stop: 'failed', detail: 'function call without a name' } });
  });

  it("MAX_TOKENS ends at the provider's token limit even with a (truncated) function call", () => {
    expect(mapGeminiFinishReason({ finishReason: 'MAX_TOKENS', content: { parts: [{ functionCall: { name: 'rm', args: {} } }] } })).toEqual({
      type: 'end',
      provider: { stop: 'token_limit', detail: "generation cut short at the provider's token limit (MAX_TOKENS)" },
      raw: 'MAX_TOKENS',
    });
  });

  it.each([null, undefined, 'stop', 'BRAND_NEW_REASON'])('%j ends as failed, never done', (reason) => {
    const step = mapGeminiFinishReason({ finishReason: reason, content: null });
    expect(step).toEqual({ type: 'end', provider: { stop: 'failed', detail: `unexpected finishReason ${JSON.stringify(reason ?? null)}` }, raw: reason ?? null });
  });
});
