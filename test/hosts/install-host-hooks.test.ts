import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkHookSettings } from '../../src/hosts/check-hook-settings.js';
import { checkToolHookSettings, describeToolHookSettingsCheck } from '../../src/hosts/check-tool-hook-settings.js';
import { COPILOT_TOOL_MATCHER, GEMINI_TOOL_MATCHER, hostHookEntry, mergeHostHooks } from '../../src/hosts/install-host-hooks.js';
import { mergeStopHook, stopHookCommand } from '../../src/hosts/install-stop-hook.js';

const REPO = join(import.meta.dirname, '../..');
const found = (value: unknown) => ({ kind: 'found', value }) as const;

describe('mergeHostHooks', () => {
  it('writes the Copilot hooks file: version 1, agentStop with the stop timeout, the tool events with a matcher', () => {
    const merged = mergeHostHooks('copilot', undefined, 330, 'linux');
    expect(merged).toMatchObject({ ok: true, changed: true, added: ['agentStop', 'preToolUse', 'postToolUse', 'postToolUseFailure'] });
    if (!merged.ok) return;
    const hooks = merged.value.hooks as Record<string, Record<string, unknown>[]>;
    expect(merged.value.version).toBe(1);
    expect(hooks.agentStop).toEqual([{ type: 'command', bash: stopHookCommand('copilot', 'linux'), powershell: 'npx --offline --no-install stopwise hook copilot', cwd: '.', timeoutSec: 330 }]);
    for (const event of ['preToolUse', 'postToolUse', 'postToolUseFailure']) expect(hooks[event]).toEqual([{ ...hooks.agentStop?.[0], timeoutSec: 30, matcher: COPILOT_TOOL_MATCHER }]);
    expect(mergeStopHook('copilot', merged.value, 330)).toMatchObject({ ok: true, changed: false, added: [] });
  });

  it('merges into Gemini settings, keeping every other setting and hook, with the timeout in milliseconds', () => {
    const existing = { model: { name: 'gemini-3-pro' }, hooks: { enabled: true, BeforeTool: [{ matcher: 'write_file', hooks: [{ type: 'command', command: './lint.sh' }] }] } };
    const merged = mergeHostHooks('gemini', existing, 330, 'linux');
    expect(merged).toMatchObject({ ok: true, changed: true, added: ['AfterAgent', 'BeforeTool', 'AfterTool'] });
    if (!merged.ok) return;
    expect(merged.value.model).toEqual({ name: 'gemini-3-pro' });
    const hooks = merged.value.hooks as Record<string, unknown>;
    expect(hooks.enabled).toBe(true);
    expect(hooks.AfterAgent).toEqual([{ hooks: [{ type: 'command', name: 'stopwise', command: stopHookCommand('gemini', 'linux'), timeout: 330_000 }] }]);
    expect(hooks.BeforeTool).toEqual([
      existing.hooks.BeforeTool[0],
      { matcher: GEMINI_TOOL_MATCHER, hooks: [{ type: 'command', name: 'stopwise-tool-guard', command: stopHookCommand('gemini', 'linux'), timeout: 30_000 }] },
    ]);
    expect(existing.hooks.BeforeTool).toHaveLength(1);
    expect(mergeHostHooks('gemini', merged.value, 330, 'linux')).toMatchObject({ ok: true, changed: false });
  });

  it('registers the stop event alone with tools "none", and tool events without a matcher with "all"', () => {
    for (const host of ['copilot', 'gemini'] as const) {
      const stopOnly = mergeHostHooks(host, undefined, 330, 'linux', 'none');
      expect(stopOnly).toMatchObject({ ok: true, added: [host === 'copilot' ? 'agentStop' : 'AfterAgent'] });
      if (!stopOnly.ok) continue;
      expect(Object.keys(stopOnly.value.hooks as object)).toEqual([host === 'copilot' ? 'agentStop' : 'AfterAgent']);
      const all = mergeHostHooks(host, undefined, 330, 'linux', 'all');
      if (!all.ok) throw new Error(all.message);
      const events = Object.entries(all.value.hooks as Record<string, Record<string, unknown>[]>).filter(([event]) => event !== 'agentStop' && event !== 'AfterAgent');
      expect(events.map(([event]) => event)).toEqual(host === 'copilot' ? ['preToolUse', 'postToolUse', 'postToolUseFailure'] : ['BeforeTool', 'AfterTool']);
      for (const [, entries] of events) expect(entries[0]).not.toHaveProperty('matcher');
    }
  });

  it('adds only the events that lack a stopwise hook', () => {
    const partial = { version: 1, hooks: { agentStop: [hostHookEntry('copilot', 'stop', 400)] } };
    expect(mergeHostHooks('copilot', partial, 330)).toMatchObject({ ok: true, added: ['preToolUse', 'postToolUse', 'postToolUseFailure'] });
  });

  it('refuses a file of a shape the host does not read', () => {
    expect(mergeHostHooks('copilot', [], 60)).toEqual({ ok: false, message: '.github/hooks/stopwise.json must hold a JSON object, got an array' });
    expect(mergeHostHooks('copilot', { version: 2 }, 60)).toMatchObject({ ok: false, message: expect.stringContaining('"version" must be 1') });
    expect(mergeHostHooks('gemini', { hooks: [] }, 60)).toMatchObject({ ok: false, message: '.gemini/settings.json: "hooks" must be an object, got an array' });
    expect(mergeHostHooks('gemini', { hooks: { AfterTool: {} } }, 60)).toMatchObject({ ok: false, message: expect.stringContaining('"hooks.AfterTool" must be an array') });
  });

  it('matches only the shell and edit tools', () => {
    const copilot = new RegExp(`^(?:${COPILOT_TOOL_MATCHER})$`);
    for (const tool of ['bash', 'powershell', 'edit', 'create', 'apply_patch']) expect(copilot.test(tool)).toBe(true);
    for (const tool of ['view', 'glob', 'grep', 'rg', 'web_fetch', 'ask_user', 'bashful']) expect(copilot.test(tool)).toBe(false);
    const gemini = new RegExp(GEMINI_TOOL_MATCHER);
    for (const tool of ['run_shell_command', 'write_file', 'replace']) expect(gemini.test(tool)).toBe(true);
    for (const tool of ['read_file', 'glob', 'grep_search', 'list_directory', 'web_fetch', 'read_many_files']) expect(gemini.test(tool)).toBe(false);
  });
});

describe('the doctor checks of the files init writes', () => {
  it('finds the stop hook and every tool hook, and says which tool hooks are missing', () => {
    for (const host of ['copilot', 'gemini'] as const) {
      const merged = mergeHostHooks(host, undefined, 330);
      if (!merged.ok) throw new Error(merged.message);
      expect(checkHookSettings(host, found(merged.value), 320_000)).toEqual({ kind: 'registered', count: 1, timeout: { kind: 'enough', seconds: 330 } });
      const tools = checkToolHookSettings(host, found(merged.value));
      expect(tools?.missing).toEqual([]);
      expect(describeToolHookSettingsCheck(host, 'f', tools ?? { registered: [], missing: [] }).status).toBe('ok');
    }
    const stopOnly = { version: 1, hooks: { agentStop: [hostHookEntry('copilot', 'stop', 330)] } };
    const check = checkToolHookSettings('copilot', found(stopOnly));
    expect(check).toEqual({ registered: [], missing: ['preToolUse', 'postToolUse', 'postToolUseFailure'] });
    expect(describeToolHookSettingsCheck('copilot', '.github/hooks/stopwise.json', check ?? { registered: [], missing: [] })).toEqual({
      status: 'warning',
      text: '.github/hooks/stopwise.json: no stopwise tool hook under hooks.preToolUse, hooks.postToolUse, hooks.postToolUseFailure: a loop inside a turn is not seen there; `stopwise init copilot` adds them',
    });
    expect(checkToolHookSettings('gemini', { kind: 'missing' })).toBeUndefined();
  });
});

describe('the commands init writes, run as each host runs them', () => {
  /** A project with stopwise installed (this checkout, linked) and a failing test. */
  function project(): string {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-host-command-'));
    writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify({ tests: { command: "printf 'TAP version 13\\n1..1\\nnot ok 1 - breaks\\n'" } }));
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(REPO, join(dir, 'node_modules/stopwise'), 'dir');
    return dir;
  }
  const env = { ...process.env, NODE_TEST_CONTEXT: undefined, CLAUDE_PROJECT_DIR: undefined };

  it("runs Copilot's bash field with bash from the repository root", () => {
    const dir = project();
    const entry = hostHookEntry('copilot', 'stop', 330, 'linux');
    const result = spawnSync('bash', ['-c', entry.bash as string], { cwd: dir, input: JSON.stringify({ sessionId: 's', cwd: dir, stopReason: 'end_turn' }), encoding: 'utf8', env });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ decision: 'block', reason: expect.stringMatching(/^1 test failed: breaks/) });
  });

  it("runs Gemini's command with bash from a subfolder, finding the install through GEMINI_PROJECT_DIR", () => {
    const dir = project();
    mkdirSync(join(dir, 'sub'));
    const entry = hostHookEntry('gemini', 'stop', 330, 'linux');
    const command = ((entry.hooks as Record<string, unknown>[])[0]?.command ?? '') as string;
    const input = JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'AfterAgent', prompt: 'p', prompt_response: 'done', stop_hook_active: false });
    const result = spawnSync('bash', ['-c', command], { cwd: join(dir, 'sub'), input, encoding: 'utf8', env: { ...env, GEMINI_PROJECT_DIR: dir } });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ decision: 'deny', reason: expect.stringMatching(/^1 test failed: breaks/) });
  });
});
