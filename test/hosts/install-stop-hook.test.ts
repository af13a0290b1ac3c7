import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeStopHook, stopHookCommand, stopHookEntry } from '../../src/hosts/install-stop-hook.js';

const REPO = join(import.meta.dirname, '../..');
const CLAUDE = 'f="$CLAUDE_PROJECT_DIR/node_modules/stopwise/dist/bin/stopwise.js"; if [ -f "$f" ]; then exec node "$f" hook claude-code; else exec npx stopwise hook claude-code; fi';

describe('mergeStopHook', () => {
  it('creates the Claude Code settings with a command on the project install', () => {
    const merged = mergeStopHook('claude-code', undefined, 120);
    expect(merged).toEqual({ ok: true, changed: true, value: { hooks: { Stop: [{ hooks: [{ type: 'command', command: CLAUDE, timeout: 120 }] }] } } });
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
    expect(first.ok && first.value).toEqual({ hooks: { Stop: [{ hooks: [{ type: 'command', command: stopHookCommand('codex'), timeout: 60 }] }] } });
    const again = mergeStopHook('codex', first.ok ? first.value : undefined, 90);
    expect(again).toMatchObject({ ok: true, changed: false });
    const shell = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'node_modules/.bin/stopwise hook claude-code' }] }] } };
    expect(mergeStopHook('claude-code', shell, 60)).toMatchObject({ ok: true, changed: false });
    const npx = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'npx', args: ['stopwise', 'hook', 'claude-code'] }] }] } };
    expect(mergeStopHook('claude-code', npx, 60)).toMatchObject({ ok: true, changed: false });
  });

  it('writes the Cursor shape with version 1', () => {
    const merged = mergeStopHook('cursor', { hooks: { afterFileEdit: [{ command: './fmt.sh' }] } }, 60);
    expect(merged.ok && merged.value).toEqual({
      version: 1,
      hooks: { afterFileEdit: [{ command: './fmt.sh' }], stop: [{ command: stopHookCommand('cursor'), timeout: 60, loop_limit: 5 }] },
    });
  });

  it('refuses a file whose shape the host does not read', () => {
    expect(mergeStopHook('claude-code', [], 60)).toEqual({ ok: false, message: '.claude/settings.json must hold a JSON object, got an array' });
    expect(mergeStopHook('claude-code', { hooks: 'x' }, 60)).toMatchObject({ ok: false, message: expect.stringContaining('"hooks" must be an object') });
    expect(mergeStopHook('cursor', { hooks: { stop: {} } }, 60)).toMatchObject({ ok: false, message: expect.stringContaining('"hooks.stop" must be an array') });
  });
});

describe('stopHookCommand', () => {
  it('runs the project install through sh, with npx as the fallback, and npx alone on Windows', () => {
    expect(stopHookCommand('claude-code', 'linux')).toBe(CLAUDE);
    expect(stopHookCommand('codex', 'darwin')).toBe(
      `sh -c 'f="node_modules/stopwise/dist/bin/stopwise.js"; if [ -f "$f" ]; then exec node "$f" hook codex; else exec npx stopwise hook codex; fi'`,
    );
    expect(stopHookCommand('cursor', 'linux')).toMatch(/^sh -c '.*exec node "\$f" hook cursor; else exec npx stopwise hook cursor; fi'$/);
    for (const host of ['claude-code', 'codex', 'cursor'] as const) expect(stopHookCommand(host, 'win32')).toBe(`npx stopwise hook ${host}`);
  });

  /** A project folder, with stopwise installed (this checkout, linked) or not, and an `npx` on PATH that only says it ran. */
  function project(installed: boolean): { dir: string; path: string } {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-command-'));
    writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify({ tests: { command: "printf 'TAP version 13\\n1..1\\nnot ok 1 - breaks\\n'" } }));
    if (installed) {
      mkdirSync(join(dir, 'node_modules'));
      symlinkSync(REPO, join(dir, 'node_modules/stopwise'), 'dir');
    }
    const bin = mkdtempSync(join(tmpdir(), 'stopwise-fake-npx-'));
    writeFileSync(join(bin, 'npx'), `#!/bin/sh\necho "npx $*" > "${join(dir, 'npx-ran')}"\n`);
    chmodSync(join(bin, 'npx'), 0o755);
    return { dir, path: `${bin}:${process.env.PATH ?? ''}` };
  }

  const run = (host: 'claude-code' | 'codex' | 'cursor', dir: string, path: string, cwd: string) =>
    spawnSync('sh', ['-c', stopHookCommand(host, 'linux')], {
      cwd,
      input: JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: host === 'cursor' ? 'stop' : 'Stop', stop_hook_active: false, status: 'completed', loop_count: 0 }),
      encoding: 'utf8',
      env: { ...process.env, PATH: path, CLAUDE_PROJECT_DIR: dir, NODE_TEST_CONTEXT: undefined },
    });

  it.each(['claude-code', 'codex', 'cursor'] as const)('runs the installed hook for %s without npx', (host) => {
    const { dir, path } = project(true);
    // Claude Code may run the hook from a subfolder: $CLAUDE_PROJECT_DIR finds the install
    const result = run(host, dir, path, host === 'claude-code' ? tmpdir() : dir);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(host === 'cursor' ? /"followup_message":"1 test failed: breaks/ : /"decision":"block","reason":"1 test failed: breaks/);
    expect(() => readFileSync(join(dir, 'npx-ran'))).toThrow();
  });

  it.each(['claude-code', 'codex', 'cursor'] as const)('falls back to npx for %s in a checkout without node_modules', (host) => {
    const { dir, path } = project(false);
    const result = run(host, dir, path, dir);
    expect(result.status, result.stderr).toBe(0);
    expect(readFileSync(join(dir, 'npx-ran'), 'utf8')).toBe(`npx stopwise hook ${host}\n`);
  });
});
