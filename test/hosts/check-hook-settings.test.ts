import { describe, expect, it } from 'vitest';
import { checkHookSettings, describeHookSettingsCheck, HOST_DEFAULT_HOOK_TIMEOUT_SECONDS } from '../../src/hosts/check-hook-settings.js';
import { mergeStopHook, stopHookEntry } from '../../src/hosts/install-stop-hook.js';

const DEADLINE_MS = 320_000;
const found = (value: unknown) => ({ kind: 'found', value }) as const;
const claude = (hook: Record<string, unknown>) => found({ hooks: { Stop: [{ hooks: [hook] }] } });
const command = 'npx stopwise hook claude-code';

describe('checkHookSettings', () => {
  it('finds the entry `stopwise init` writes, for every host and both forms', () => {
    for (const host of ['claude-code', 'codex', 'cursor', 'copilot', 'gemini'] as const) {
      const merged = mergeStopHook(host, undefined, 330);
      expect(merged.ok).toBe(true);
      if (!merged.ok) continue;
      expect(checkHookSettings(host, found(merged.value), DEADLINE_MS)).toEqual({ kind: 'registered', count: 1, timeout: { kind: 'enough', seconds: 330 } });
    }
    const exec = stopHookEntry('claude-code', 400, 'linux', 'exec');
    expect(checkHookSettings('claude-code', claude(exec), DEADLINE_MS)).toMatchObject({ kind: 'registered', timeout: { kind: 'enough', seconds: 400 } });
  });

  it('says when the file is missing, malformed, or has no stopwise hook for this host', () => {
    expect(checkHookSettings('claude-code', { kind: 'missing' }, DEADLINE_MS)).toEqual({ kind: 'missing' });
    expect(checkHookSettings('claude-code', { kind: 'invalid', message: 'not valid JSON (x)' }, DEADLINE_MS)).toEqual({ kind: 'invalid', message: 'not valid JSON (x)' });
    expect(checkHookSettings('claude-code', found([1]), DEADLINE_MS)).toEqual({ kind: 'invalid', message: 'must hold a JSON object, got an array' });
    expect(checkHookSettings('claude-code', found({ hooks: [] }), DEADLINE_MS)).toMatchObject({ kind: 'invalid', message: expect.stringMatching(/^"hooks" must be an object/) });
    expect(checkHookSettings('codex', found({ hooks: { Stop: {} } }), DEADLINE_MS)).toMatchObject({ kind: 'invalid', message: expect.stringMatching(/^"hooks.Stop" must be an array/) });
    expect(checkHookSettings('claude-code', found({}), DEADLINE_MS)).toEqual({ kind: 'not_registered' });
    expect(checkHookSettings('claude-code', found({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo hi' }] }, 7, null] } }), DEADLINE_MS)).toEqual({ kind: 'not_registered' });
    expect(checkHookSettings('claude-code', claude({ type: 'command', command: 'npx stopwise hook codex', timeout: 400 }), DEADLINE_MS)).toEqual({ kind: 'not_registered' });
    expect(checkHookSettings('cursor', found({ version: 1, hooks: { Stop: [{ command: 'npx stopwise hook cursor' }] } }), DEADLINE_MS)).toEqual({ kind: 'not_registered' });
  });

  it('compares the timeout in seconds with the deadline in milliseconds: it must be above', () => {
    expect(checkHookSettings('claude-code', claude({ command, timeout: 321 }), DEADLINE_MS)).toMatchObject({ timeout: { kind: 'enough', seconds: 321 } });
    expect(checkHookSettings('claude-code', claude({ command, timeout: 320 }), DEADLINE_MS)).toMatchObject({ timeout: { kind: 'too_low', seconds: 320 } });
    expect(checkHookSettings('claude-code', claude({ command, timeout: 60 }), DEADLINE_MS)).toMatchObject({ timeout: { kind: 'too_low', seconds: 60 } });
    expect(checkHookSettings('claude-code', claude({ command, timeout: '600' }), DEADLINE_MS)).toMatchObject({ timeout: { kind: 'invalid', value: '600' } });
    expect(checkHookSettings('claude-code', claude({ command, timeout: 0 }), DEADLINE_MS)).toMatchObject({ timeout: { kind: 'invalid', value: 0 } });
  });

  it("uses the host's default timeout when the entry sets none", () => {
    expect(HOST_DEFAULT_HOOK_TIMEOUT_SECONDS).toEqual({ 'claude-code': 600, codex: 600, cursor: undefined, copilot: 30, gemini: 60 });
    expect(checkHookSettings('claude-code', claude({ command }), DEADLINE_MS)).toMatchObject({ timeout: { kind: 'default', seconds: 600, enough: true } });
    expect(checkHookSettings('claude-code', claude({ command }), 600_000)).toMatchObject({ timeout: { kind: 'default', seconds: 600, enough: false } });
    expect(checkHookSettings('cursor', found({ version: 1, hooks: { stop: [{ command: 'npx stopwise hook cursor' }] } }), DEADLINE_MS)).toMatchObject({
      timeout: { kind: 'default_unknown' },
    });
  });

  it("reads Copilot's timeoutSec in seconds and Gemini's timeout in milliseconds, and Copilot's version", () => {
    const copilot = (entry: Record<string, unknown>, version: unknown = 1) => found({ version, hooks: { agentStop: [{ type: 'command', bash: 'npx stopwise hook copilot', ...entry }] } });
    const gemini = (hook: Record<string, unknown>) => found({ hooks: { AfterAgent: [{ hooks: [{ type: 'command', command: 'npx stopwise hook gemini', ...hook }] }] } });
    expect(checkHookSettings('copilot', copilot({ timeoutSec: 330 }), DEADLINE_MS)).toMatchObject({ timeout: { kind: 'enough', seconds: 330 } });
    expect(checkHookSettings('copilot', copilot({}), DEADLINE_MS)).toMatchObject({ timeout: { kind: 'default', seconds: 30, enough: false } });
    expect(checkHookSettings('copilot', copilot({ timeout: 330 }), DEADLINE_MS)).toMatchObject({ timeout: { kind: 'default', seconds: 30, enough: false } });
    expect(checkHookSettings('copilot', copilot({ timeoutSec: 330 }, 2), DEADLINE_MS)).toEqual({ kind: 'invalid', message: '"version" must be 1 (the hooks format Copilot reads), got 2' });
    expect(checkHookSettings('gemini', gemini({ timeout: 330_000 }), DEADLINE_MS)).toMatchObject({ timeout: { kind: 'enough', seconds: 330 } });
    expect(checkHookSettings('gemini', gemini({ timeout: 330 }), DEADLINE_MS)).toMatchObject({ timeout: { kind: 'too_low', seconds: 0.33 } });
    expect(checkHookSettings('gemini', gemini({}), DEADLINE_MS)).toMatchObject({ timeout: { kind: 'default', seconds: 60, enough: false } });
    const low = describeHookSettingsCheck('gemini', checkHookSettings('gemini', gemini({ timeout: 330 }), DEADLINE_MS), DEADLINE_MS, 330);
    expect(low).toEqual({ status: 'problem', text: expect.stringContaining('set "timeout": 330000 on the stopwise entry') });
    const none = describeHookSettingsCheck('copilot', { kind: 'not_registered' }, DEADLINE_MS, 330);
    expect(none.text).toBe('.github/hooks/stopwise.json: no stopwise stop hook (`stopwise hook copilot` under hooks.agentStop); `stopwise init copilot` adds it');
    const short = describeHookSettingsCheck('copilot', checkHookSettings('copilot', copilot({}), DEADLINE_MS), DEADLINE_MS, 330);
    expect(short).toEqual({ status: 'problem', text: expect.stringContaining("Copilot's default of 30 s is not above the hook's deadline") });
    expect(short.text).toContain('set "timeoutSec": 330 on the stopwise entry');
  });

  it('counts a hook registered twice', () => {
    const twice = found({ hooks: { Stop: [{ hooks: [{ command, timeout: 400 }] }, { hooks: [{ command, timeout: 400 }] }] } });
    expect(checkHookSettings('claude-code', twice, DEADLINE_MS)).toMatchObject({ kind: 'registered', count: 2 });
  });
});

describe('describeHookSettingsCheck', () => {
  const line = (check: Parameters<typeof describeHookSettingsCheck>[1], deadline = DEADLINE_MS) => describeHookSettingsCheck('claude-code', check, deadline, 330);

  it('is ok for a registered hook with enough time, naming the timeout and the deadline', () => {
    expect(line({ kind: 'registered', count: 1, timeout: { kind: 'enough', seconds: 330 } })).toEqual({
      status: 'ok',
      text: ".claude/settings.json: stop hook registered, timeout 330 s, above the hook's deadline (320 s: tests.timeoutMs + 2 × judge.timeoutMs + 20 s)",
    });
    expect(line({ kind: 'registered', count: 1, timeout: { kind: 'default', seconds: 600, enough: true } })).toMatchObject({
      status: 'ok',
      text: expect.stringContaining("no timeout: Claude Code's default of 600 s applies"),
    });
  });

  it('is a problem, with the fix, for a missing file, a malformed one, an absent hook or a short timeout', () => {
    expect(line({ kind: 'missing' })).toEqual({ status: 'problem', text: '.claude/settings.json: not found; `stopwise init claude-code` writes it' });
    expect(line({ kind: 'invalid', message: 'not valid JSON (Unexpected token)' })).toEqual({ status: 'problem', text: '.claude/settings.json: not valid JSON (Unexpected token)' });
    expect(line({ kind: 'not_registered' })).toMatchObject({ status: 'problem', text: expect.stringContaining('no stopwise stop hook') });
    expect(line({ kind: 'registered', count: 1, timeout: { kind: 'too_low', seconds: 60 } })).toEqual({
      status: 'problem',
      text: ".claude/settings.json: the stop hook's timeout (60 s) is not above the hook's deadline (320 s: tests.timeoutMs + 2 × judge.timeoutMs + 20 s): Claude Code would kill the hook before it answers; set \"timeout\": 330 on the stopwise entry",
    });
    expect(line({ kind: 'registered', count: 1, timeout: { kind: 'default', seconds: 600, enough: false } }, 650_000)).toMatchObject({ status: 'problem' });
    expect(line({ kind: 'registered', count: 1, timeout: { kind: 'invalid', value: '600' } })).toMatchObject({ status: 'problem', text: expect.stringContaining('got "600"') });
  });

  it('warns about a host with no documented default and about a hook registered twice', () => {
    expect(describeHookSettingsCheck('cursor', { kind: 'registered', count: 1, timeout: { kind: 'default_unknown' } }, DEADLINE_MS, 330)).toMatchObject({
      status: 'warning',
      text: expect.stringContaining('Cursor documents no default'),
    });
    expect(line({ kind: 'registered', count: 2, timeout: { kind: 'enough', seconds: 330 } })).toMatchObject({ status: 'warning', text: expect.stringContaining('registered 2 times') });
  });
});
