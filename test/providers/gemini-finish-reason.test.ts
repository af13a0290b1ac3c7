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
  FINISH_REASON_UNSPECIFIED: { kind: 'failed' },
  STOP: { kind: 'blocked', reason: 'model stopped without finish' },
  MAX_TOKENS: { kind: 'out_of_budget', limit: 'tokens' },
  SAFETY: { kind: 'blocked', reason: 'content blocked (SAFETY)' },
  RECITATION: { kind: 'blocked', reason: 'content blocked (RECITATION)' },
  LANGUAGE: { kind: 'blocked', reason: 'unsupported language (LANGUAGE)' },
  OTHER: { kind: 'failed' },
  BLOCKLIST: { kind: 'blocked', reason: 'content blocked (BLOCKLIST)' },
  PROHIBITED_CONTENT: { kind: 'blocked', reason: 'content blocked (PROHIBITED_CONTENT)' },
  SPII: { kind: 'blocked', reason: 'content blocked (SPII)' },
  MALFORMED_FUNCTION_CALL: { kind: 'failed' },
  IMAGE_SAFETY: { kind: 'blocked', reason: 'content blocked (IMAGE_SAFETY)' },
  IMAGE_PROHIBITED_CONTENT: { kind: 'blocked', reason: 'content blocked (IMAGE_PROHIBITED_CONTENT)' },
  IMAGE_OTHER: { kind: 'failed' },
  NO_IMAGE: { kind: 'failed' },
  IMAGE_RECITATION: { kind: 'blocked', reason: 'content blocked (IMAGE_RECITATION)' },
  UNEXPECTED_TOOL_CALL: { kind: 'failed' },
  TOO_MANY_TOOL_CALLS: { kind: 'out_of_budget', limit: 'steps' },
  MISSING_THOUGHT_SIGNATURE: { kind: 'failed' },
  MALFORMED_RESPONSE: { kind: 'failed' },
  ESCALATION: { kind: 'failed' },
  PUP_LIMITED_DISABLED: { kind: 'failed' },
  CONTINUATION: undefined,
  MODEL_ARMOR: { kind: 'blocked', reason: 'content blocked (MODEL_ARMOR)' },
};

const text = { parts: [{ text: 'Here is what I found.' }] };

describe('mapGeminiFinishReason', () => {
  it.each(CONTRACT_VALUES)('%s maps as in the table of docs/providers.md, keeping the raw value', (reason) => {
    const step = mapGeminiFinishReason({ finishReason: reason, content: text });
    expect(step.raw).toBe(reason);
    if (reason === 'CONTINUATION') expect(step).toEqual({ type: 'resume', raw: reason });
    else expect(step).toMatchObject({ type: 'halt', stop: EXPECTED[reason] });
    if (step.type === 'halt' && step.stop.kind === 'failed') expect(step.stop.error).toContain(reason);
  });

  it('covers every value the @google/genai SDK knows', () => {
    for (const value of Object.values(FinishReason)) expect(CONTRACT_VALUES).toContain(value);
  });

  it('STOP with one functionCall calls it; finish halts', () => {
    const call = (name: string, args?: unknown) => ({ finishReason: 'STOP', content: { parts: [{ text: 'ok' }, { functionCall: { id: 'fc1', name, args } }] } });
    expect(mapGeminiFinishReason(call('search', { q: 'x' }))).toEqual({ type: 'call', tool: 'search', args: { q: 'x' }, id: 'fc1', raw: 'STOP' });
    expect(mapGeminiFinishReason(call('listFiles'))).toMatchObject({ type: 'call', tool: 'listFiles', args: {} });
    expect(mapGeminiFinishReason(call('finish', { kind: 'give_up', note: 'no data' }))).toMatchObject({ stop: { kind: 'blocked', reason: 'no data' } });
    expect(mapGeminiFinishReason(call('finish', { summary: 'done it' }))).toMatchObject({ stop: { kind: 'done', summary: 'done it' } });
    expect(mapGeminiFinishReason(call('finish'))).toMatchObject({ stop: { kind: 'failed', error: expect.stringContaining('invalid finish input') } });
  });

  it('STOP with several function calls, or one without a name, halts as failed', () => {
    const parts = [{ functionCall: { name: 'a', args: {} } }, { functionCall: { name: 'b', args: {} } }];
    expect(mapGeminiFinishReason({ finishReason: 'STOP', content: { parts } })).toMatchObject({ stop: { kind: 'failed', error: expect.stringContaining('2 function calls') } });
    expect(mapGeminiFinishReason({ finishReason: 'STOP', content: { parts: [{ functionCall: { args: {} } }] } })).toMatchObject({ stop: { kind: 'failed' } });
  });

  it('MAX_TOKENS halts out of budget even with a (truncated) function call', () => {
    expect(mapGeminiFinishReason({ finishReason: 'MAX_TOKENS', content: { parts: [{ functionCall: { name: 'rm', args: {} } }] } })).toMatchObject({
      type: 'halt',
      stop: { kind: 'out_of_budget', limit: 'tokens' },
    });
  });

  it.each([null, undefined, 'stop', 'BRAND_NEW_REASON'])('%j halts as failed, never done', (reason) => {
    const step = mapGeminiFinishReason({ finishReason: reason, content: null });
    expect(step).toEqual({ type: 'halt', stop: { kind: 'failed', error: `unexpected finishReason ${JSON.stringify(reason ?? null)}` }, raw: reason ?? null });
  });
});
