import { describe, expect, it } from 'vitest';
import { checkToolHooks, describeToolHooksCheck, mergeToolHooks } from '../../src/hosts/install-tool-hooks.js';
import { mergeStopHook, stopHookCommand } from '../../src/hosts/install-stop-hook.js';

describe('mergeToolHooks', () => {
  it('adds one entry per tool event next to the user\'s own, once', () => {
    const own = { matcher: 'Write', hooks: [{ type: 'command', command: './format.sh' }] };
    const first = mergeToolHooks('claude-code', { hooks: { PostToolUse: [own] } }, { platform: 'linux' });
    expect(first).toMatchObject({ ok: true, added: ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'] });
    if (!first.ok) return;
    const hooks = first.value.hooks as Record<string, unknown[]>;
    expect(hooks.PostToolUse).toEqual([own, { matcher: 'Bash|Edit|MultiEdit|Write|NotebookEdit|mcp__.*', hooks: [{ type: 'command', command: stopHookCommand('claude-code', 'linux'), timeout: 30 }] }]);
    const again = mergeToolHooks('claude-code', first.value, { platform: 'linux' });
    expect(again).toMatchObject({ ok: true, added: [] });
    expect(again.ok && again.value).toEqual(first.value);
  });

  it('registers every tool without a matcher when asked, Codex on Bash, and Cursor per event', () => {
    const all = mergeToolHooks('claude-code', {}, { allTools: true, platform: 'linux' });
    expect(all.ok && (all.value.hooks as Record<string, unknown[]>).PreToolUse).toEqual([{ hooks: [{ type: 'command', command: stopHookCommand('claude-code', 'linux'), timeout: 30 }] }]);
    const codex = mergeToolHooks('codex', {}, { platform: 'linux' });
    expect(codex.ok && Object.keys(codex.value.hooks as object)).toEqual(['PreToolUse', 'PostToolUse']);
    const cursor = mergeToolHooks('cursor', { version: 1, hooks: {} }, { platform: 'linux' });
    expect(cursor.ok && (cursor.value.hooks as Record<string, unknown[]>).afterFileEdit).toEqual([{ command: stopHookCommand('cursor', 'linux'), timeout: 30 }]);
  });

  it('refuses a settings file of the wrong shape', () => {
    expect(mergeToolHooks('claude-code', { hooks: { PreToolUse: 'x' } })).toEqual({ ok: false, message: '.claude/settings.json: "hooks.PreToolUse" must be an array, got "x"' });
    expect(mergeToolHooks('codex', { hooks: [] })).toMatchObject({ ok: false });
  });
});

describe('checkToolHooks', () => {
  it('names the events registered with what they see, the missing ones, and none as optional', () => {
    const stop = mergeStopHook('claude-code', undefined, 330);
    if (!stop.ok) throw new Error(stop.message);
    expect(describeToolHooksCheck('claude-code', checkToolHooks('claude-code', { kind: 'found', value: stop.value }))).toEqual({
      status: 'ok',
      text: '.claude/settings.json: no stopwise tool hooks (optional): loops inside a turn are not guarded; `stopwise init claude-code` adds them',
    });
    const tools = mergeToolHooks('claude-code', stop.value);
    if (!tools.ok) throw new Error(tools.message);
    expect(describeToolHooksCheck('claude-code', checkToolHooks('claude-code', { kind: 'found', value: tools.value })).status).toBe('ok');
    const hooks = { ...(tools.value.hooks as Record<string, unknown>) };
    delete hooks.PostToolUseFailure;
    const partial = describeToolHooksCheck('claude-code', checkToolHooks('claude-code', { kind: 'found', value: { hooks } }));
    expect(partial).toEqual({
      status: 'warning',
      text: '.claude/settings.json: tool guard on PreToolUse (Bash|Edit|MultiEdit|Write|NotebookEdit|mcp__.*), PostToolUse (Bash|Edit|MultiEdit|Write|NotebookEdit|mcp__.*), but not on PostToolUseFailure; `stopwise init claude-code` adds them',
    });
    expect(checkToolHooks('cursor', { kind: 'invalid', message: 'x' })).toEqual({ kind: 'unreadable' });
  });
});
