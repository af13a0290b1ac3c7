import { describe, expect, it } from 'vitest';
import { DEFAULT_STALL_OPTIONS } from '../../../src/core/stall-detection/stall-options.js';
import { digestStep } from '../../../src/core/stall-detection/step-digest.js';

describe('digestStep', () => {
  it('keeps digests and flags, not the output', () => {
    const big = 'x'.repeat(50_000);
    const d = digestStep({ tool: 'bash', input: 'make', output: `${big}\nError: boom`, exitCode: 2 }, DEFAULT_STALL_OPTIONS);
    expect(d).toMatchObject({ call: true, tool: 'bash', failed: true, signature: 'Error: boom', infrastructure: false });
    expect(d.callDigest).toMatch(/^[0-9a-f]{16}$/);
    expect(JSON.stringify(d).length).toBeLessThan(400);
  });

  it('infers a failure only when the step does not say', () => {
    expect(digestStep({ tool: 't', output: 'Error: x' }, DEFAULT_STALL_OPTIONS).failed).toBe(true);
    expect(digestStep({ tool: 't', output: 'Error: x', exitCode: 0 }, DEFAULT_STALL_OPTIONS).failed).toBe(false);
    expect(digestStep({ tool: 't', output: 'Error: x' }, { ...DEFAULT_STALL_OPTIONS, inferErrors: false }).failed).toBe(false);
    expect(digestStep({ text: 'hmm' }, DEFAULT_STALL_OPTIONS)).toMatchObject({ call: false, silentMessage: true });
  });
});
