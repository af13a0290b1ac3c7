import { describe, expect, it } from 'vitest';
import { applyHostBlockCap, hostBlockCap } from '../../src/hosts/host-block-cap.js';

describe('hostBlockCap', () => {
  it('knows Claude Code 8 and its override (0 turns it off), Cursor loop_limit + 1, and no cap for Codex', () => {
    expect(hostBlockCap('claude-code', {})).toEqual({ blocks: 8, source: "Claude Code's default cap" });
    expect(hostBlockCap('claude-code', { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '3' })).toEqual({ blocks: 3, source: 'CLAUDE_CODE_STOP_HOOK_BLOCK_CAP' });
    expect(hostBlockCap('claude-code', { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '0' })).toBeUndefined();
    expect(hostBlockCap('claude-code', { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: 'lots' })?.blocks).toBe(8);
    expect(hostBlockCap('cursor', {}, 2)).toEqual({ blocks: 3, source: 'the loop_limit in .cursor/hooks.json' });
    expect(hostBlockCap('cursor', {})?.blocks).toBe(6);
    expect(hostBlockCap('codex', { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '3' })).toBeUndefined();
  });
  it('knows Copilot CLI 8 blocks and Gemini CLI 100 turns, whatever the Claude Code override says', () => {
    expect(hostBlockCap('copilot', { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '0' })).toEqual({ blocks: 8, source: "Copilot CLI's cap" });
    expect(hostBlockCap('gemini', {})).toEqual({ blocks: 100, source: "Gemini CLI's turn cap" });
  });
});

describe('applyHostBlockCap', () => {
  const block = { decision: 'block' as const, reason: 'Fix the 2 failing tests.' };
  it('hands off instead of the block the host would end the run on, and says whose cap', () => {
    const cap = { blocks: 3, source: 'CLAUDE_CODE_STOP_HOOK_BLOCK_CAP' };
    expect(applyHostBlockCap(block, 1, cap, 'Claude Code')).toEqual({ decision: block, capped: false });
    const capped = applyHostBlockCap(block, 2, cap, 'Claude Code');
    expect(capped).toMatchObject({ endedBy: 'stopwise', capped: true });
    expect(capped.decision).toEqual({ systemMessage: expect.stringMatching(/Claude Code ends the run after 3 blocks in a row \(CLAUDE_CODE_STOP_HOOK_BLOCK_CAP\) and this would be block 3.*Fix the 2 failing tests\.$/) });
  });
  it('leaves allows and hand-offs as they are (stopwise ends the run), and blocks alone without a cap', () => {
    expect(applyHostBlockCap(undefined, 9, { blocks: 3, source: 's' }, 'X')).toEqual({ decision: undefined, endedBy: 'stopwise', capped: false });
    expect(applyHostBlockCap({ systemMessage: 'look' }, 9, { blocks: 3, source: 's' }, 'X').decision).toEqual({ systemMessage: 'look' });
    expect(applyHostBlockCap(block, 50, undefined, 'Codex')).toEqual({ decision: block, capped: false });
  });
});
