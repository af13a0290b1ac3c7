import { describe, expect, it } from 'vitest';
import { encodeCodexOutput } from '../../src/hosts/encode-codex-output.js';
import { hostOutputProblems } from './host-output-schemas.js';

describe('encodeCodexOutput', () => {
  it('encodes a block with a non-empty trimmed reason and no other key', () => {
    const output = encodeCodexOutput({ decision: 'block', reason: '\n No tests ran, run the suite \n' });
    expect(output).toEqual({ decision: 'block', reason: 'No tests ran, run the suite' });
    expect(hostOutputProblems('codex', output)).toEqual([]);
  });

  it('folds additionalContext into the reason instead of sending the Claude Code key', () => {
    const output = encodeCodexOutput({ decision: 'block', reason: 'Check the criteria.' }, { additionalContext: 'Acceptance criteria:\n- a' });
    expect(output).toEqual({ decision: 'block', reason: 'Check the criteria.\n\nAcceptance criteria:\n- a' });
    expect(JSON.stringify(output)).not.toMatch(/hookSpecificOutput|additionalContext/);
    expect(hostOutputProblems('codex', output)).toEqual([]);
  });

  it('encodes a hand-off as systemMessage, a block with a warning with both, an allow as nothing', () => {
    expect(hostOutputProblems('codex', encodeCodexOutput({ systemMessage: 'look' }))).toEqual([]);
    const warned = encodeCodexOutput({ decision: 'block', reason: 'r', systemMessage: 'model down' });
    expect(warned).toEqual({ decision: 'block', reason: 'r', systemMessage: 'model down' });
    expect(hostOutputProblems('codex', warned)).toEqual([]);
    expect(encodeCodexOutput(undefined)).toBeUndefined();
  });

  it('replaces a blank reason, which Codex rejects', () => {
    const output = encodeCodexOutput({ decision: 'block', reason: '   ' });
    expect(hostOutputProblems('codex', output)).toEqual([]);
  });

  it('is checked by a schema that rejects extra keys and blank reasons (the schema can fail)', () => {
    expect(hostOutputProblems('codex', { decision: 'block', reason: 'r', hookSpecificOutput: {} })).not.toEqual([]);
    expect(hostOutputProblems('codex', { decision: 'block', reason: ' ' })).not.toEqual([]);
    expect(hostOutputProblems('codex', { decision: 'block' })).not.toEqual([]);
  });
});
