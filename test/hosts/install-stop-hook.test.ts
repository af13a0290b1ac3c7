import { describe, expect, it } from 'vitest';
import { mergeStopHook, stopHookEntry } from '../../src/hosts/install-stop-hook.js';

describe('mergeStopHook', () => {
  it('creates the Claude Code settings with the exec form', () => {
    const merged = mergeStopHook('claude-code', undefined, 120);
    expect(merged).toEqual({
      ok: true,
      changed: true,
      value: { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'npx', args: ['stopwise', 'hook', 'claude-code'], timeout: 120 }] }] } },
    });
  });

  it('keeps every existing entry and key', () => {
    const existing = {
      permissions: { allow: ['Bash(npm test)'] },
      hooks: {
        PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'prettier --write' }] }],
        Stop: [{ hooks: [{ type: 'command', command: './notify.sh' }] }],
      },
    };
    const merged = mergeStopHook('claude-code', existing, 60);
    expect(merged.ok && merged.value).toEqual({
      permissions: { allow: ['Bash(npm test)'] },
      hooks: {
        PostToolUse: existing.hooks.PostToolUse,
        Stop: [existing.hooks.Stop[0], { hooks: [stopHookEntry('claude-code', 60)] }],
      },
    });
    expect(existing.hooks.Stop).toHaveLength(1);
  });

  it('changes nothing when the stopwise hook is there, in either form', () => {
    const first = mergeStopHook('codex', undefined, 60);
    expect(first.ok && first.value).toEqual({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'npx stopwise hook codex', timeout: 60 }] }] } });
    const again = mergeStopHook('codex', first.ok ? first.value : undefined, 90);
    expect(again).toMatchObject({ ok: true, changed: false });
    const shell = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'node_modules/.bin/stopwise hook claude-code' }] }] } };
    expect(mergeStopHook('claude-code', shell, 60)).toMatchObject({ ok: true, changed: false });
  });

  it('writes the Cursor shape with version 1', () => {
    const merged = mergeStopHook('cursor', { hooks: { afterFileEdit: [{ command: './fmt.sh' }] } }, 60);
    expect(merged.ok && merged.value).toEqual({
      version: 1,
      hooks: { afterFileEdit: [{ command: './fmt.sh' }], stop: [{ command: 'npx stopwise hook cursor', timeout: 60, loop_limit: 5 }] },
    });
  });

  it('refuses a file whose shape the host does not read', () => {
    expect(mergeStopHook('claude-code', [], 60)).toEqual({ ok: false, message: '.claude/settings.json must hold a JSON object, got an array' });
    expect(mergeStopHook('claude-code', { hooks: 'x' }, 60)).toMatchObject({ ok: false, message: expect.stringContaining('"hooks" must be an object') });
    expect(mergeStopHook('cursor', { hooks: { stop: {} } }, 60)).toMatchObject({ ok: false, message: expect.stringContaining('"hooks.stop" must be an array') });
  });
});
