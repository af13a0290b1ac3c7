import { describe, expect, it } from 'vitest';
import { effectiveMaxConsecutiveBlocks, hostBlockCap } from '../../src/hosts/host-block-cap.js';

describe('host block caps', () => {
  it('knows each host cap, and Claude Code reads its override', () => {
    expect(hostBlockCap('copilot', {})).toBe(8);
    expect(hostBlockCap('gemini', {})).toBe(100);
    expect(hostBlockCap('claude-code', {})).toBe(8);
    expect(hostBlockCap('claude-code', { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '3' })).toBe(3);
    expect(hostBlockCap('claude-code', { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '0' })).toBeUndefined();
    expect(hostBlockCap('claude-code', { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: 'lots' })).toBe(8);
    expect(hostBlockCap('codex', {})).toBeUndefined();
    expect(hostBlockCap('cursor', {})).toBeUndefined();
  });

  it('keeps the blocks below the cap so that the attempt the cap would end is a hand-off', () => {
    expect(effectiveMaxConsecutiveBlocks('copilot', 20, {})).toBe(7);
    expect(effectiveMaxConsecutiveBlocks('copilot', 3, {})).toBe(3);
    expect(effectiveMaxConsecutiveBlocks('gemini', 500, {})).toBe(99);
    expect(effectiveMaxConsecutiveBlocks('claude-code', 20, { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '1' })).toBe(1);
    expect(effectiveMaxConsecutiveBlocks('codex', 20, {})).toBe(20);
  });
});
