import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireFileLock } from '../../src/hosts/file-lock.js';
import type { ProjectTestRunner } from '../../src/hosts/project-tests.js';
import { output, runHook } from '../../src/hosts/run-hook.js';
import { parseSessionState, sessionStatePath } from '../../src/hosts/session-state.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-run-hook-'));
  folders.push(dir);
  return dir;
}

function project(config: unknown = { tests: { command: 'unused' } }): string {
  const dir = folder();
  writeFileSync(join(dir, 'stopwise.config.json'), typeof config === 'string' ? config : JSON.stringify(config));
  return dir;
}

const RED: ProjectTestRunner = { run: async () => ({ outcome: 'ran', evidence: { passed: false, failed: ['a > b'], ran: 1 } }) };
const UNTESTED: ProjectTestRunner = {
  run: () => {
    throw new Error('the tests ran');
  },
};
const stop = (extra: Record<string, unknown> = {}) => JSON.stringify({ session_id: 's', hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'done', ...extra });
const pre = (extra: Record<string, unknown> = {}) => JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' }, ...extra });

describe('runHook', () => {
  it('answers a tool event with the tool guard alone and a stop with the stop hook, over one state file per session', async () => {
    const dir = project();
    expect(await runHook('claude-code', pre({ cwd: dir }), { env: {}, testRunner: UNTESTED })).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    const post = JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_response: { stdout: 'ok' } });
    expect(await runHook('claude-code', post, { env: {}, testRunner: UNTESTED })).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    const answered = await runHook('claude-code', stop({ cwd: dir }), { env: {}, testRunner: RED });
    expect(JSON.parse(answered.stdout)).toMatchObject({ decision: 'block' });
    const files = readdirSync(join(dir, '.stopwise/state')).filter((name) => name.startsWith('session-') && name.endsWith('.json'));
    expect(files).toEqual([sessionStatePath(join(dir, '.stopwise/state'), 'claude-code', 's').split('/').at(-1)]);
    const state = parseSessionState(JSON.parse(readFileSync(join(dir, '.stopwise/state', files[0] as string), 'utf8')));
    expect(state).toMatchObject({ stop: { step: 1 }, lastStop: { kind: 'block' }, tools: { totals: { recorded: 1 } } });
  });

  it('looks for the configuration from the folder the payload names, then the folder the host names, then its own', async () => {
    const dir = project();
    const elsewhere = folder();
    const blocked = (run: { stdout: string }) => JSON.parse(run.stdout).decision === 'block';
    expect(blocked(await runHook('claude-code', stop({ session_id: 'a', cwd: dir }), { env: {}, cwd: elsewhere, testRunner: RED }))).toBe(true);
    expect(blocked(await runHook('claude-code', stop({ session_id: 'b' }), { env: { CLAUDE_PROJECT_DIR: dir }, cwd: elsewhere, testRunner: RED }))).toBe(true);
    expect(blocked(await runHook('claude-code', stop({ session_id: 'c' }), { env: {}, cwd: dir, testRunner: RED }))).toBe(true);
    // Codex sets no variable: a CLAUDE_PROJECT_DIR in its environment is not its project.
    const codex = await runHook('codex', stop({ session_id: 'd' }), { env: { CLAUDE_PROJECT_DIR: dir }, cwd: elsewhere, testRunner: RED });
    expect(JSON.parse(codex.stdout).systemMessage).toMatch(/no stopwise\.config\.json in /);
  });

  it('lets a tool call go ahead with one line when there is no configuration, or the guard reads a mistake in its part of it', async () => {
    const none = folder();
    const missing = await runHook('claude-code', pre({ cwd: none }), { env: {}, cwd: none });
    expect(missing).toEqual({ exitCode: 0, stdout: '', stderr: `stopwise: no stopwise.config.json in ${none} or any parent folder; the tool guard did not check this call.\n` });
    const bad = project({ tests: { command: 'npm test' }, toolGuard: { ladder: { nudges: -1 } } });
    const refused = await runHook('gemini', JSON.stringify({ session_id: 's', cwd: bad, hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: {} }), { env: {}, cwd: bad });
    expect(refused.exitCode).toBe(0);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/^stopwise: .*stopwise\.config\.json: toolGuard\.ladder\.nudges: .*; the tool guard did not check this call\.\n$/);
  });

  it('guards calls whatever is wrong elsewhere in the configuration: that is the stop hook to say', async () => {
    const dir = project({ tests: { command: '' }, decisionModel: { client: 'openai-compatible' }, colour: 'red' });
    expect(await runHook('claude-code', pre({ cwd: dir }), { env: {} })).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    // the guard ran: the session has its state
    expect(readdirSync(join(dir, '.stopwise/state')).some((name) => name.startsWith('session-'))).toBe(true);
  });

  it('does nothing at all for a tool event when the guard is turned off', async () => {
    const dir = project({ tests: { command: 'unused' }, toolGuard: { enabled: false } });
    expect(await runHook('claude-code', pre({ cwd: dir }), { env: {} })).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(readdirSync(dir)).toEqual(['stopwise.config.json']);
  });

  it('lets a tool call go ahead with one line when its state cannot be kept or is held too long', async () => {
    const broken = project({ tests: { command: 'unused' }, stateDir: 'state-is-a-file' });
    writeFileSync(join(broken, 'state-is-a-file'), 'not a folder');
    const failed = await runHook('copilot', JSON.stringify({ sessionId: 's', cwd: broken, toolName: 'bash', toolArgs: '{"command":"ls"}' }), { env: {} });
    expect(failed).toEqual({ exitCode: 0, stdout: '', stderr: expect.stringMatching(/^stopwise: the tool guard did not check this call: it failed \(.*EEXIST.*\)\.\n$/) });
    expect(readFileSync(join(broken, 'state-is-a-file'), 'utf8')).toBe('not a folder');

    const dir = project();
    const stateDir = join(dir, '.stopwise/state');
    mkdirSync(stateDir, { recursive: true });
    const held = await acquireFileLock(sessionStatePath(stateDir, 'claude-code', 's'));
    try {
      const busy = await runHook('claude-code', pre({ cwd: dir }), { env: {}, lockTimeoutMs: 50 });
      expect(busy).toEqual({ exitCode: 0, stdout: '', stderr: expect.stringMatching(/^stopwise: the tool guard did not check this call: another hook of this session held its state too long \(.*\)\.\n$/) });
    } finally {
      await held.release();
    }
  });
});

describe('output', () => {
  it("prints the answer's JSON on one line, and the lines for the person before the host's own stderr, each ending once", () => {
    expect(output({ exitCode: 0, stdout: { decision: 'block', reason: 'a\nb' }, stderr: 'host line\n' }, ['warning  ', 'second'])).toEqual({
      exitCode: 0,
      stdout: '{"decision":"block","reason":"a\\nb"}\n',
      stderr: 'warning\nsecond\nhost line\n',
    });
    expect(output({ exitCode: 2, stderr: 'guidance' }, [])).toEqual({ exitCode: 2, stdout: '', stderr: 'guidance\n' });
    expect(output({ exitCode: 0, stdout: {} }, [])).toEqual({ exitCode: 0, stdout: '{}\n', stderr: '' });
  });
});
