import { describe, expect, it } from 'vitest';
import { encodeBlockReason } from '../../src/hosts/encode-block-reason.js';

describe('encodeBlockReason', () => {
  it('trims the reason and appends the context after a blank line', () => {
    expect(encodeBlockReason('  Fix it. \n', '\nTask: x\n')).toBe('Fix it.\n\nTask: x');
    expect(encodeBlockReason('Fix it.')).toBe('Fix it.');
    expect(encodeBlockReason('Fix it.', '  ')).toBe('Fix it.');
  });

  it('never gives an empty reason', () => {
    expect(encodeBlockReason(' \n ')).toMatch(/^stopwise: the stop was blocked/);
    expect(encodeBlockReason('', 'Task: x')).toBe('Task: x');
  });
});
