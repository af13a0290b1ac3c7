import { describe, expect, it } from 'vitest';
import { hookCommand } from '../../src/hosts/hook-command.js';
import { HOSTS } from '../../src/hosts/host.js';
import { checkSettings, describeSettings, installHooks, TOOL_HOOK_TIMEOUT_SECONDS, type SettingsCheck } from '../../src/hosts/settings-file.js';

const DEADLINE_MS = 320_000;
const found = (value: unknown) => ({ kind: 'found', value }) as const;
const claude = HOSTS['claude-code'];
const CLAUDE = hookCommand(claude);
const stopEntry = (hook: Record<string, unknown>) => found({ hooks: { Stop: [{ hooks: [{ type: 'command', command: CLAUDE, ...hook }] }] } });

describe('installHooks', () => {
  it("adds its entries next to the user's own, keeping every other key, and leaves the value it was given as it was", () => {
    const existing = {
      permissions: { allow: ['Bash(npm test)'] },
      hooks: { PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'prettier --write' }] }], Stop: [{ hooks: [{ type: 'command', command: './notify.sh' }] }] },
    };
    const before = JSON.stringify(existing);
    const merged = installHooks(claude, existing, { timeoutSeconds: 330, tools: 'matched' });
    if (!merged.ok) throw new Error(merged.message);
    expect(JSON.stringify(existing)).toBe(before);
    const tool = { matcher: claude.toolMatcher, hooks: [{ type: 'command', command: CLAUDE, timeout: TOOL_HOOK_TIMEOUT_SECONDS }] };
    expect(merged.value).toEqual({
      permissions: existing.permissions,
      hooks: {
        PostToolUse: [existing.hooks.PostToolUse[0], tool],
        Stop: [existing.hooks.Stop[0], { hooks: [{ type: 'command', command: CLAUDE, timeout: 330 }] }],
        PreToolUse: [tool],
        PostToolUseFailure: [tool],
      },
    });
  });

  it('adds only the events that have no stopwise hook yet', () => {
    const partial = installHooks(HOSTS.copilot, undefined, { timeoutSeconds: 400, tools: 'none' });
    if (!partial.ok) throw new Error(partial.message);
    expect(installHooks(HOSTS.copilot, partial.value, { timeoutSeconds: 330, tools: 'matched' })).toMatchObject({
      ok: true,
      changed: true,
      replaced: false,
      added: ['preToolUse', 'postToolUse', 'postToolUseFailure'],
    });
  });

  it("replaces an older stopwise command inside an entry it shares with the user's hooks, keeping them and their matcher", () => {
    const older = 'npx stopwise hook claude-code';
    const shared = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './audit.sh' }, { type: 'command', command: older }, { type: 'command', command: older }] }] } };
    const merged = installHooks(claude, shared, { timeoutSeconds: 330, tools: 'matched' });
    if (!merged.ok) throw new Error(merged.message);
    expect(merged.replaced).toBe(true);
    expect((merged.value.hooks as Record<string, unknown>).PreToolUse).toEqual([
      { matcher: 'Bash', hooks: [{ type: 'command', command: './audit.sh' }, { type: 'command', command: CLAUDE, timeout: TOOL_HOOK_TIMEOUT_SECONDS }] },
    ]);
  });

  it('writes the exec form for Claude Code when asked, spawned without a shell, and keeps it on the next install', () => {
    const exec = installHooks(claude, undefined, { timeoutSeconds: 330, tools: 'none', exec: true });
    if (!exec.ok) throw new Error(exec.message);
    expect(exec.value).toEqual({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'npx', args: ['--offline', '--no-install', 'stopwise', 'hook', 'claude-code'], timeout: 330 }] }] } });
    expect(installHooks(claude, exec.value, { timeoutSeconds: 330, tools: 'none', exec: true })).toMatchObject({ ok: true, changed: false });
    // The shell form is another form of the command: installing it replaces the exec form.
    expect(installHooks(claude, exec.value, { timeoutSeconds: 330, tools: 'none' })).toMatchObject({ ok: true, replaced: true });
    // Other hosts run hook commands in a shell: exec does not apply.
    const codex = installHooks(HOSTS.codex, undefined, { timeoutSeconds: 330, tools: 'none', exec: true });
    expect(codex.ok && codex.value).toEqual({ hooks: { Stop: [{ hooks: [{ type: 'command', command: "sh -c 'command . .codex/stopwise.sh || exit 1'", timeout: 330 }] }] } });
  });

  it("writes each host's entry shape: Cursor's loop_limit, Copilot's bash and powershell, Gemini's milliseconds", () => {
    const entries = (name: 'cursor' | 'copilot' | 'gemini') => {
      const merged = installHooks(HOSTS[name], undefined, { timeoutSeconds: 330, tools: 'matched' });
      if (!merged.ok) throw new Error(merged.message);
      return merged.value as { version?: number; hooks: Record<string, unknown[]> };
    };
    const cursor = entries('cursor');
    expect(cursor.version).toBe(1);
    expect(cursor.hooks.stop).toEqual([{ command: `sh -c 'command . "$CURSOR_PROJECT_DIR"/.cursor/stopwise.sh || exit 1'`, timeout: 330, loop_limit: 5 }]);
    expect(cursor.hooks.afterFileEdit).toEqual([{ command: `sh -c 'command . "$CURSOR_PROJECT_DIR"/.cursor/stopwise.sh || exit 1'`, timeout: 30 }]);
    const copilot = entries('copilot');
    expect(copilot.hooks.agentStop).toEqual([
      { type: 'command', bash: 'command . .github/hooks/stopwise.sh || exit 0', powershell: 'npx --offline --no-install stopwise hook copilot', cwd: '.', timeoutSec: 330 },
    ]);
    const gemini = entries('gemini');
    expect(gemini.hooks.AfterAgent).toEqual([{ hooks: [{ type: 'command', name: 'stopwise', command: 'command . "${GEMINI_PROJECT_DIR:-.}"/.gemini/stopwise.sh || exit 1', timeout: 330_000 }] }]);
    expect(gemini.hooks.BeforeTool).toEqual([
      { matcher: HOSTS.gemini.toolMatcher, hooks: [{ type: 'command', name: 'stopwise-tool-guard', command: 'command . "${GEMINI_PROJECT_DIR:-.}"/.gemini/stopwise.sh || exit 1', timeout: 30_000 }] },
    ]);
  });

  it('registers the tool hooks on the tools that run commands or change files', () => {
    const matches = (matcher: string | undefined, tool: string) => new RegExp(`^(?:${matcher ?? ''})$`).test(tool);
    for (const tool of ['Bash', 'Edit', 'MultiEdit', 'Write', 'NotebookEdit', 'mcp__github__create_issue']) expect(matches(claude.toolMatcher, tool), tool).toBe(true);
    for (const tool of ['Read', 'Glob', 'Grep', 'WebFetch', 'TodoWrite', 'BashOutput']) expect(matches(claude.toolMatcher, tool), tool).toBe(false);
    for (const tool of ['bash', 'powershell', 'edit', 'create', 'apply_patch']) expect(matches(HOSTS.copilot.toolMatcher, tool), tool).toBe(true);
    for (const tool of ['view', 'glob', 'grep', 'web_fetch', 'bashful']) expect(matches(HOSTS.copilot.toolMatcher, tool), tool).toBe(false);
    const gemini = new RegExp(HOSTS.gemini.toolMatcher ?? '');
    for (const tool of ['run_shell_command', 'write_file', 'replace']) expect(gemini.test(tool), tool).toBe(true);
    for (const tool of ['read_file', 'glob', 'list_directory', 'read_many_files', 'replace_all']) expect(gemini.test(tool), tool).toBe(false);
    expect(HOSTS.codex.toolMatcher).toBe('Bash');
  });
});

describe('checkSettings', () => {
  it('compares the timeout with the deadline: it must be above it', () => {
    expect(checkSettings(claude, stopEntry({ timeout: 321 }), DEADLINE_MS)).toMatchObject({ stop: { count: 1, timeout: { kind: 'enough', seconds: 321 } } });
    expect(checkSettings(claude, stopEntry({ timeout: 320 }), DEADLINE_MS)).toMatchObject({ stop: { timeout: { kind: 'too_low', seconds: 320 } } });
    expect(checkSettings(claude, stopEntry({ timeout: '600' }), DEADLINE_MS)).toMatchObject({ stop: { timeout: { kind: 'invalid', value: '600' } } });
    expect(checkSettings(claude, stopEntry({ timeout: 0 }), DEADLINE_MS)).toMatchObject({ stop: { timeout: { kind: 'invalid', value: 0 } } });
  });

  it("uses the host's default when the entry sets no timeout, and says when the host documents none", () => {
    expect(checkSettings(claude, stopEntry({}), DEADLINE_MS)).toMatchObject({ stop: { timeout: { kind: 'default', seconds: 600, enough: true } } });
    expect(checkSettings(claude, stopEntry({}), 600_000)).toMatchObject({ stop: { timeout: { kind: 'default', seconds: 600, enough: false } } });
    const cursor = found({ version: 1, hooks: { stop: [{ command: 'npx stopwise hook cursor' }] } });
    expect(checkSettings(HOSTS.cursor, cursor, DEADLINE_MS)).toMatchObject({ stop: { timeout: { kind: 'default_unknown' } } });
    const copilot = (entry: Record<string, unknown>) => found({ version: 1, hooks: { agentStop: [{ type: 'command', bash: 'npx stopwise hook copilot', ...entry }] } });
    expect(checkSettings(HOSTS.copilot, copilot({}), DEADLINE_MS)).toMatchObject({ stop: { timeout: { kind: 'default', seconds: 30, enough: false } } });
    // Copilot's key is timeoutSec: a "timeout" is not read.
    expect(checkSettings(HOSTS.copilot, copilot({ timeout: 330 }), DEADLINE_MS)).toMatchObject({ stop: { timeout: { kind: 'default', seconds: 30 } } });
    expect(checkSettings(HOSTS.copilot, copilot({ timeoutSec: 330 }), DEADLINE_MS)).toMatchObject({ stop: { timeout: { kind: 'enough', seconds: 330 } } });
  });

  it("reads Gemini's timeout in milliseconds", () => {
    const gemini = (timeout: number) => found({ hooks: { AfterAgent: [{ hooks: [{ type: 'command', command: 'npx stopwise hook gemini', timeout }] }] } });
    expect(checkSettings(HOSTS.gemini, gemini(330_000), DEADLINE_MS)).toMatchObject({ stop: { timeout: { kind: 'enough', seconds: 330 } } });
    expect(checkSettings(HOSTS.gemini, gemini(330), DEADLINE_MS)).toMatchObject({ stop: { timeout: { kind: 'too_low', seconds: 0.33 } } });
  });

  it("counts only this host's stopwise stop hooks, under the host's own event name, and a hook registered twice", () => {
    expect(checkSettings(claude, found({}), DEADLINE_MS)).toEqual({ kind: 'read', stop: { count: 0 }, tools: { registered: [], missing: ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'] } });
    const junk = found({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo hi' }] }, 7, null, { hooks: [{ command: 'npx stopwise hook codex' }] }] } });
    expect(checkSettings(claude, junk, DEADLINE_MS)).toMatchObject({ stop: { count: 0 } });
    expect(checkSettings(HOSTS.cursor, found({ version: 1, hooks: { Stop: [{ command: 'npx stopwise hook cursor' }] } }), DEADLINE_MS)).toMatchObject({ stop: { count: 0 } });
    const twice = found({ hooks: { Stop: [{ hooks: [{ command: CLAUDE, timeout: 400 }] }, { hooks: [{ command: CLAUDE, timeout: 400 }] }] } });
    expect(checkSettings(claude, twice, DEADLINE_MS)).toMatchObject({ stop: { count: 2, timeout: { kind: 'enough', seconds: 400 } } });
  });

  it('tells a form to keep from one init replaces, and a launcher the settings run that is not there', () => {
    const stop = (command: string) => checkSettings(claude, stopEntry({ command, timeout: 330 }), DEADLINE_MS);
    const command = (check: SettingsCheck) => (check.kind === 'read' ? check.stop.command : undefined);
    // Kept: what init writes here or on Windows, in either Claude Code form, and a launcher line with the guard (the
    // telemetry recipe's).
    const kept = [
      CLAUDE,
      hookCommand(claude, 'win32'),
      'NODE_OPTIONS="--import ./telemetry-setup.mjs" sh "$CLAUDE_PROJECT_DIR"/.claude/stopwise.sh || exit 1',
    ];
    for (const line of kept) expect(command(stop(line)), line).toEqual({ line, current: true, launcherMissing: false });
    const exec = checkSettings(claude, found({ hooks: { Stop: [{ hooks: [{ command: 'npx', args: ['--offline', '--no-install', 'stopwise', 'hook', 'claude-code'] }] }] } }), DEADLINE_MS);
    expect(command(exec)?.current).toBe(true);
    // Replaced: a launcher line without the guard, an npx that may download stopwise.
    for (const line of ['. "$CLAUDE_PROJECT_DIR"/.claude/stopwise.sh', 'sh .claude/stopwise.sh', 'npx stopwise hook claude-code']) {
      expect(command(stop(line))?.current, line).toBe(false);
    }
    const missing = checkSettings(claude, stopEntry({ command: CLAUDE, timeout: 330 }), DEADLINE_MS, false);
    expect(command(missing)).toEqual({ line: CLAUDE, current: true, launcherMissing: true });
    // A command that does not run the launcher needs none.
    expect(command(checkSettings(claude, stopEntry({ command: hookCommand(claude, 'win32'), timeout: 330 }), DEADLINE_MS, false))?.launcherMissing).toBe(false);
  });

  it('says when the file is missing, unreadable or of the wrong shape, and never throws', () => {
    expect(checkSettings(claude, { kind: 'missing' }, DEADLINE_MS)).toEqual({ kind: 'missing' });
    expect(checkSettings(claude, { kind: 'invalid', message: 'not valid JSON (x)' }, DEADLINE_MS)).toEqual({ kind: 'invalid', message: 'not valid JSON (x)' });
    expect(checkSettings(claude, found('text'), DEADLINE_MS)).toEqual({ kind: 'invalid', message: 'must hold a JSON object, got "text"' });
    expect(checkSettings(HOSTS.codex, found({ hooks: { PreToolUse: 'x' } }), DEADLINE_MS)).toMatchObject({ kind: 'read', tools: { missing: ['PreToolUse', 'PostToolUse'] } });
  });
});

describe('describeSettings', () => {
  const line = (check: SettingsCheck, name: keyof typeof HOSTS = 'claude-code') => describeSettings(HOSTS[name], check, DEADLINE_MS, 330);
  const tools = { registered: [], missing: ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'] };
  const read = (timeout: NonNullable<Extract<SettingsCheck, { kind: 'read' }>['stop']['timeout']>, count = 1): SettingsCheck => ({ kind: 'read', stop: { count, timeout }, tools });

  it('is ok for a stop hook with time enough, naming its timeout and the deadline, and calls the tool hooks optional', () => {
    expect(line(read({ kind: 'enough', seconds: 330 }))).toEqual([
      { status: 'ok', text: ".claude/settings.json: stop hook registered, timeout 330 s, above the hook's deadline (320 s: tests.timeoutMs + 2 × decisionModel.timeoutMs + 20 s)" },
      { status: 'ok', text: '.claude/settings.json: no stopwise tool hooks (optional): loops inside a turn are not guarded; `stopwise init claude-code` adds them' },
    ]);
    expect(line(read({ kind: 'default', seconds: 600, enough: true }))[0]).toMatchObject({ status: 'ok', text: expect.stringContaining("no timeout: Claude Code's default of 600 s applies") });
  });

  it('is a problem, with the fix, for a missing file, a malformed one, no stop hook, or a timeout the host would kill the hook at', () => {
    expect(line({ kind: 'missing' })).toEqual([{ status: 'problem', text: '.claude/settings.json: not found; `stopwise init claude-code` writes it' }]);
    expect(line({ kind: 'invalid', message: 'not valid JSON (x)' })).toEqual([{ status: 'problem', text: '.claude/settings.json: not valid JSON (x)' }]);
    expect(line({ kind: 'read', stop: { count: 0 }, tools })[0]).toEqual({
      status: 'problem',
      text: '.claude/settings.json: no stopwise stop hook (`stopwise hook claude-code` under hooks.Stop); `stopwise init claude-code` adds it',
    });
    expect(line(read({ kind: 'too_low', seconds: 60 }))[0]).toEqual({
      status: 'problem',
      text: ".claude/settings.json: the stop hook's timeout (60 s) is not above the hook's deadline (320 s: tests.timeoutMs + 2 × decisionModel.timeoutMs + 20 s): Claude Code would kill the hook before it answers; set \"timeout\": 330 on the stopwise entry",
    });
    expect(line(read({ kind: 'invalid', value: '600' }))[0]).toMatchObject({ status: 'problem', text: expect.stringContaining('"timeout" must be a positive number of seconds, got "600"') });
    expect(line(read({ kind: 'default', seconds: 30, enough: false }), 'copilot')[0]).toMatchObject({
      status: 'problem',
      text: expect.stringMatching(/no timeout, and Copilot's default of 30 s is not above the hook's deadline .*; set "timeoutSec": 330 on the stopwise entry$/),
    });
    // Gemini counts in milliseconds: the fix says so.
    expect(line(read({ kind: 'too_low', seconds: 0.33 }), 'gemini')[0]?.text).toMatch(/set "timeout": 330000 on the stopwise entry$/);
    expect(line(read({ kind: 'invalid', value: -1 }), 'gemini')[0]?.text).toContain('must be a positive number of milliseconds');
  });

  it('warns of a host with no documented default and of a hook registered twice', () => {
    expect(line(read({ kind: 'default_unknown' }), 'cursor')[0]).toMatchObject({ status: 'warning', text: expect.stringContaining('Cursor documents no default: set "timeout": 330') });
    expect(line(read({ kind: 'enough', seconds: 330 }, 2))[0]).toMatchObject({ status: 'warning', text: expect.stringContaining('registered 2 times, so it runs 2 times at every stop') });
  });

  it('reports a missing launcher as a problem and an older command as a warning, after the stop hook line', () => {
    const withCommand = (current: boolean, launcherMissing: boolean): SettingsCheck => ({
      kind: 'read',
      stop: { count: 1, timeout: { kind: 'enough', seconds: 330 }, command: { line: CLAUDE, current, launcherMissing } },
      tools,
    });
    expect(line(withCommand(true, false)).map((entry) => entry.status)).toEqual(['ok', 'ok']);
    expect(line(withCommand(true, true))[1]).toEqual({
      status: 'problem',
      text: '.claude/stopwise.sh: not found, and .claude/settings.json runs it: the stopwise hooks do nothing; `stopwise init claude-code` writes it',
    });
    const older = {
      status: 'warning',
      text: '.claude/settings.json: the stop hook runs an older form of the stopwise command (a missing launcher would block the agent, or npx may download stopwise); `stopwise init claude-code` replaces it',
    };
    expect(line(withCommand(false, false))[1]).toEqual(older);
    // With the default timeouts (no valid configuration), the note qualifies the deadline, and nothing else.
    const lines = describeSettings(claude, withCommand(false, false), DEADLINE_MS, 330, true);
    expect(lines[0]?.text).toBe(
      ".claude/settings.json: stop hook registered, timeout 330 s, above the hook's deadline (320 s: tests.timeoutMs + 2 × decisionModel.timeoutMs + 20 s; the default timeouts, as there is no valid configuration)",
    );
    expect(lines[1]).toEqual(older);
  });

  it('names the tool events the guard sees, with their matcher, and warns of the ones it misses', () => {
    const partial: SettingsCheck = {
      kind: 'read',
      stop: { count: 1, timeout: { kind: 'enough', seconds: 330 } },
      tools: { registered: [{ event: 'PreToolUse', matcher: 'Bash' }, { event: 'PostToolUse' }], missing: ['PostToolUseFailure'] },
    };
    expect(line(partial)[1]).toEqual({
      status: 'warning',
      text: '.claude/settings.json: tool guard on PreToolUse (Bash), PostToolUse (every tool), but not on PostToolUseFailure; `stopwise init claude-code` adds them',
    });
    const cursor: SettingsCheck = { ...partial, tools: { registered: [{ event: 'beforeShellExecution' }], missing: [] } };
    expect(line(cursor, 'cursor')[1]).toEqual({ status: 'ok', text: '.cursor/hooks.json: tool guard registered on beforeShellExecution' });
  });
});
