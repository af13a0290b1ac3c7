import { describe, expect, it } from 'vitest';
import { HOOK_HOSTS, isHookHost, isStopEventName } from '../../src/hosts/hook-host.js';

describe('hook hosts', () => {
  it('lists the five hosts and recognises only them', () => {
    expect(HOOK_HOSTS).toEqual(['claude-code', 'codex', 'cursor', 'copilot', 'gemini']);
    expect(isHookHost('codex')).toBe(true);
    expect(isHookHost('Codex')).toBe(false);
    expect(isHookHost(undefined)).toBe(false);
  });

  it('knows the stop events of every host', () => {
    for (const name of ['Stop', 'SubagentStop', 'stop', 'subagentStop', 'agentStop', 'AfterAgent']) expect(isStopEventName(name)).toBe(true);
    for (const name of ['PreToolUse', 'SessionEnd', 'STOP', '', 'BeforeTool', 'preToolUse', 'BeforeAgent']) expect(isStopEventName(name)).toBe(false);
  });
});
