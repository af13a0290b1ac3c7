import { describe, expect, it } from 'vitest';
import { encodeClaudeCodeOutput } from '../../src/hosts/encode-claude-code-output.js';
import { encodeCodexOutput } from '../../src/hosts/encode-codex-output.js';
import { encodeCursorOutput } from '../../src/hosts/encode-cursor-output.js';
import { encodeHostOutput } from '../../src/hosts/encode-host-output.js';
import { hostOutputProblems } from './host-output-schemas.js';

const block = { decision: 'block', reason: '1 test failed: a. Fix it.' } as const;
const handoff = { systemMessage: 'stopwise: a person should look.' } as const;

describe('encodeHostOutput', () => {
  it("answers with each host's own encoder", () => {
    for (const decision of [block, handoff, undefined]) {
      expect(encodeHostOutput('claude-code', decision, { additionalContext: 'Task: t' })).toEqual(encodeClaudeCodeOutput(decision, { additionalContext: 'Task: t' }));
      expect(encodeHostOutput('codex', decision, { additionalContext: 'Task: t' })).toEqual(encodeCodexOutput(decision, { additionalContext: 'Task: t' }));
      expect(encodeHostOutput('cursor', decision, { additionalContext: 'Task: t' })).toEqual(encodeCursorOutput(decision, { additionalContext: 'Task: t' }));
    }
  });

  it("keeps every answer within the host's output schema", () => {
    expect(encodeHostOutput('cursor', block)).toEqual({ followup_message: '1 test failed: a. Fix it.' });
    expect(encodeHostOutput('claude-code', block, { additionalContext: 'Task: t' })).toEqual({ decision: 'block', reason: '1 test failed: a. Fix it.\n\nTask: t' });
    for (const host of ['claude-code', 'codex', 'cursor'] as const) {
      for (const decision of [block, handoff]) {
        expect(hostOutputProblems(host, encodeHostOutput(host, decision) as Record<string, unknown>)).toEqual([]);
      }
    }
  });
});
