import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:net';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mergeStopHook, stopHookCommand, stopHookEntry } from '../../src/hosts/install-stop-hook.js';

const REPO = join(import.meta.dirname, '../..');
const NOT_INSTALLED = 'stopwise: the stop hook did not run through npx (is stopwise installed? the hook never downloads it: npm i -D stopwise); the stop goes ahead unchecked';
const fallback = (host: string) => `npx --offline --no-install stopwise hook ${host} || { echo "${NOT_INSTALLED}" >&2; exit 1; }`;
const CLAUDE = 'f="$CLAUDE_PROJECT_DIR/node_modules/stopwise/dist/bin/stopwise.js"; if [ -f "$f" ]; then exec node "$f" hook claude-code; else npx --offline --no-install stopwise hook claude-code || { echo "stopwise: the stop hook did not run through npx (is stopwise installed? the hook never downloads it: npm i -D stopwise); the stop goes ahead unchecked" >&2; exit 1; }; fi';

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
    const npx = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'npx', args: ['--no-install', 'stopwise', 'hook', 'claude-code'] }] }] } };
    expect(mergeStopHook('claude-code', npx, 60)).toMatchObject({ ok: true, changed: false });
  });

  it('replaces an older stopwise hook whose npx could download stopwise, and keeps the entries around it', () => {
    const old = 'f="$CLAUDE_PROJECT_DIR/node_modules/stopwise/dist/bin/stopwise.js"; if [ -f "$f" ]; then exec node "$f" hook claude-code; else exec npx stopwise hook claude-code; fi';
    const existing = { hooks: { Stop: [{ hooks: [{ type: 'command', command: './notify.sh' }, { type: 'command', command: old, timeout: 99 }] }] } };
    expect(mergeStopHook('claude-code', existing, 60)).toEqual({
      ok: true,
      changed: true,
      replaced: true,
      value: { hooks: { Stop: [{ hooks: [{ type: 'command', command: './notify.sh' }, stopHookEntry('claude-code', 60)] }] } },
    });
    const exec = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'npx', args: ['stopwise', 'hook', 'claude-code'] }] }] } };
    expect(mergeStopHook('claude-code', exec, 60, 'exec')).toMatchObject({ ok: true, replaced: true, value: { hooks: { Stop: [{ hooks: [stopHookEntry('claude-code', 60, 'linux', 'exec')] }] } } });
    const cursor = { version: 1, hooks: { stop: [{ command: 'npx stopwise hook cursor', loop_limit: 5 }] } };
    expect(mergeStopHook('cursor', cursor, 60)).toMatchObject({ ok: true, replaced: true, value: { hooks: { stop: [stopHookEntry('cursor', 60)] } } });
    const current = mergeStopHook('codex', undefined, 60);
    expect(mergeStopHook('codex', current.ok ? current.value : undefined, 60)).toMatchObject({ ok: true, changed: false });
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
      `sh -c 'f="node_modules/stopwise/dist/bin/stopwise.js"; if [ -f "$f" ]; then exec node "$f" hook codex; else ${fallback('codex')}; fi'`,
    );
    expect(stopHookCommand('cursor', 'linux')).toBe(
      `sh -c 'f="node_modules/stopwise/dist/bin/stopwise.js"; if [ -f "$f" ]; then exec node "$f" hook cursor; else ${fallback('cursor')}; fi'`,
    );
    for (const host of ['claude-code', 'codex', 'cursor'] as const) expect(stopHookCommand(host, 'win32')).toBe(`npx --offline --no-install stopwise hook ${host}`);
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

  it.each(['claude-code', 'codex', 'cursor'] as const)('falls back to npx for %s in a checkout without node_modules, never letting it install', (host) => {
    const { dir, path } = project(false);
    const result = run(host, dir, path, dir);
    expect(result.status, result.stderr).toBe(0);
    expect(readFileSync(join(dir, 'npx-ran'), 'utf8')).toBe(`npx --offline --no-install stopwise hook ${host}\n`);
  });
});

describe('the installed hook command where stopwise is not installed', { timeout: 60_000 }, () => {
  let registry: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => (registry === undefined ? resolve(undefined) : registry.close(resolve)));
    registry = undefined;
  });

  /** A loopback server standing in for the npm registry: it counts connections and answers none. */
  async function countingRegistry(): Promise<{ url: string; connections: () => number }> {
    let connections = 0;
    const server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    registry = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    return { url: `http://127.0.0.1:${address.port}/`, connections: () => connections };
  }

  /** Runs the command as the host would, with the real npx on PATH, an empty npm cache and the counting registry. */
  function runReal(command: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(command[0] as string, command.slice(1), { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
      child.stdin.end(JSON.stringify({ session_id: 's', cwd, hook_event_name: 'Stop', stop_hook_active: false }));
    });
  }

  const scratch = () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-not-installed-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'scratch', private: true }));
    const cache = mkdtempSync(join(tmpdir(), 'stopwise-npm-cache-'));
    return { dir, cache };
  };

  const envFor = (dir: string, cache: string, url: string): NodeJS.ProcessEnv => ({
    PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
    HOME: dir,
    CLAUDE_PROJECT_DIR: dir,
    npm_config_cache: cache,
    npm_config_registry: url,
    npm_config_fetch_retries: '0',
    npm_config_update_notifier: 'false',
  });

  it.each(['claude-code', 'codex', 'cursor'] as const)('lets the %s stop go ahead with how to install it, and asks the registry nothing', async (host) => {
    const { dir, cache } = scratch();
    const { url, connections } = await countingRegistry();
    const result = await runReal(['sh', '-c', stopHookCommand(host, 'linux')], dir, envFor(dir, cache, url));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(NOT_INSTALLED);
    expect(connections()).toBe(0);
    expect(existsSync(join(cache, '_npx')) ? readdirSync(join(cache, '_npx')) : []).toEqual([]);
  });

  it('runs the exec form without fetching either', async () => {
    const { dir, cache } = scratch();
    const { url, connections } = await countingRegistry();
    const entry = stopHookEntry('claude-code', 60, 'linux', 'exec') as { command: string; args: string[] };
    const result = await runReal([entry.command, ...entry.args], dir, envFor(dir, cache, url));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(connections()).toBe(0);
  });
});
