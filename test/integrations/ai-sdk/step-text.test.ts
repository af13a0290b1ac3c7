import { describe, expect, it } from 'vitest';
import { stepProgressText, stepsText } from '../../../src/integrations/ai-sdk/step-text.js';

describe('stepsText', () => {
  it('joins the text of the steps that said something', () => {
    const steps = [
      { text: 'Looking.', toolCalls: [] },
      { text: '  ', toolCalls: [{ toolName: 'edit', input: {} }] },
      { text: 'Fixed.', toolCalls: [] },
    ];
    expect(stepsText(steps)).toBe('Looking.\n\nFixed.');
    expect(stepsText([])).toBe('');
  });
});

describe('stepProgressText', () => {
  it('is the same for steps that say and call the same, and differs when an input differs', () => {
    const a = { text: 'Trying.', toolCalls: [{ toolName: 'edit', input: { path: 'a.ts', line: 3 } }] };
    const b = { text: 'Trying.', toolCalls: [{ toolName: 'edit', input: { path: 'a.ts', line: 3 } }] };
    const c = { text: 'Trying.', toolCalls: [{ toolName: 'edit', input: { path: 'a.ts', line: 4 } }] };
    expect(stepProgressText(a)).toBe('Trying.\n[edit {"path":"a.ts","line":3}]');
    expect(stepProgressText(a)).toBe(stepProgressText(b));
    expect(stepProgressText(a)).not.toBe(stepProgressText(c));
  });

  it('does not throw on an input JSON cannot encode', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(stepProgressText({ text: '', toolCalls: [{ toolName: 't', input: cyclic }, { toolName: 'u', input: undefined }] })).toBe(
      '\n[t [object Object]]\n[u undefined]',
    );
  });
});
