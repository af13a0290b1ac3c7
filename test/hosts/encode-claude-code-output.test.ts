import { describe, expect, it } from 'vitest';
import { encodeClaudeCodeOutput } from '../../src/hosts/encode-claude-code-output.js';
import { hostOutputProblems } from './host-output-schemas.js';

describe('encodeClaudeCodeOutput', () => {
  it('encodes a block as decision and reason', () => {
    const output = encodeClaudeCodeOutput({ decision: 'block', reason: '  1 test failed: a.  ' });
    expect(output).toEqual({ decision: 'block', reason: '1 test failed: a.' });
    expect(hostOutputProblems('claude-code', output)).toEqual([]);
  });

  it('appends additionalContext to the reason on a block only, and never sends hookSpecificOutput', () => {
    for (const eventName of ['Stop', 'SubagentStop']) {
      const output = encodeClaudeCodeOutput({ decision: 'block', reason: 'Check the criteria. ' }, { additionalContext: ' Acceptance criteria:\n- a\n' });
      expect(output, eventName).toEqual({ decision: 'block', reason: 'Check the criteria.\n\nAcceptance criteria:\n- a' });
      expect(hostOutputProblems('claude-code', output)).toEqual([]);
    }
    expect(encodeClaudeCodeOutput({ systemMessage: 'look' }, { additionalContext: 'x' })).toEqual({ systemMessage: 'look' });
    expect(encodeClaudeCodeOutput(undefined, { additionalContext: 'x' })).toBeUndefined();
  });

  it('encodes a hand-off as a systemMessage and an allow as nothing', () => {
    const output = encodeClaudeCodeOutput({ systemMessage: 'stopwise: a person should look' });
    expect(output).toEqual({ systemMessage: 'stopwise: a person should look' });
    expect(hostOutputProblems('claude-code', output)).toEqual([]);
    expect(encodeClaudeCodeOutput(undefined)).toBeUndefined();
  });

  it('never sends an empty reason', () => {
    const output = encodeClaudeCodeOutput({ decision: 'block', reason: ' \n ' });
    expect(output?.reason?.trim()).not.toBe('');
    expect(hostOutputProblems('claude-code', output)).toEqual([]);
  });

  it('keeps a warning next to a block', () => {
    const output = encodeClaudeCodeOutput({ decision: 'block', reason: 'r', systemMessage: 'model down' });
    expect(output).toEqual({ decision: 'block', reason: 'r', systemMessage: 'model down' });
  });

  it('is caught by the schema when a block has no reason (the schema can fail)', () => {
    expect(hostOutputProblems('claude-code', { decision: 'block' })).not.toEqual([]);
    expect(hostOutputProblems('claude-code', { decision: 'block', reason: 'r', extra: 1 })).not.toEqual([]);
    expect(hostOutputProblems('claude-code', { decision: 'block', reason: 'r', hookSpecificOutput: { hookEventName: 'Stop', additionalContext: 'x' } })).not.toEqual([]);
  });
});
