import { describe, expect, it } from 'vitest';
import { hookTestEvidence } from '../../src/hosts/hook-test-runner.js';

describe('hookTestEvidence', () => {
  it('keeps the evidence of a run that ended normally', () => {
    const evidence = { passed: false, failed: ['a'], ran: 2 };
    expect(hookTestEvidence({ outcome: 'ran', evidence })).toBe(evidence);
    expect(hookTestEvidence({ outcome: 'ran', evidence, reason: 'exit 1' })).toBe(evidence);
  });

  it('names the test command as the failure of a run that failed outside any test', () => {
    const evidence = { passed: false, failed: [], ran: 0 };
    expect(hookTestEvidence({ outcome: 'ran', evidence, reason: 'the command could not start: spawn nope ENOENT' })).toEqual({
      ...evidence,
      failures: [{ name: 'test command', message: 'the command could not start: spawn nope ENOENT' }],
    });
  });

  it('keeps the failures a run already names', () => {
    const evidence = { passed: false, failed: [], ran: 0, failures: [{ name: 'suite', message: 'crashed' }] };
    expect(hookTestEvidence({ outcome: 'reused', evidence, reason: 'crash' })).toBe(evidence);
  });
});
