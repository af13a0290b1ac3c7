import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolders } from '../support/temp-folders.js';
import { acquireFileLock } from '../../src/hosts/file-lock.js';
import type { ProjectTestRunner } from '../../src/hosts/project-tests.js';
import { output, runHook } from '../../src/hosts/run-hook.js';
import { parseSessionState, sessionStatePath } from '../../src/hosts/session-state.js';

const tempFolder = tempFolders();
const folder = (): string => tempFolder('stopwise-run-hook-');

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

describe('runHook: the policy reads the turn\'s tool steps', () => {
  const post = (dir: string, output = 'Error: boom', exitCode = 1) =>
    JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_response: { stdout: output, exit_code: exitCode } });
  const rules = (stall: Record<string, unknown>) => ({
    version: 2,
    rules: [
      { id: 'looping', when: { stall }, then: { kind: 'stop', exit: 'need_help', reason: 'stalled' } },
      { id: 'red', when: { tests: 'failed' }, then: { kind: 'retry', reason: 'tests_failed' } },
      { id: 'green', when: { always: true }, then: { kind: 'stop', exit: 'success', reason: 'done' } },
    ],
  });
  const state = (dir: string) => parseSessionState(JSON.parse(readFileSync(sessionStatePath(join(dir, '.stopwise/state'), 'claude-code', 's'), 'utf8')));

  it('keeps the tool steps since the last stop for a step-history stall rule, which then hands the stalled turn to a person instead of blocking', async () => {
    const dir = project({ tests: { command: 'unused' }, toolGuard: { enabled: false }, policy: rules({ detector: 'step_history' }) });
    for (let n = 0; n < 3; n++) expect(await runHook('claude-code', post(dir), { env: {} })).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(state(dir)?.steps).toHaveLength(3);
    const answered = await runHook('claude-code', stop({ cwd: dir }), { env: {}, testRunner: RED });
    expect(JSON.parse(answered.stdout).systemMessage).toMatch(/failed the same way each time/);
    expect(state(dir)).toMatchObject({ steps: [], stop: null, lastStop: { kind: 'handoff' } });
    // Two failures are no stall: the red tests block as usual.
    for (let n = 0; n < 2; n++) await runHook('claude-code', post(dir), { env: {} });
    expect(JSON.parse((await runHook('claude-code', stop({ cwd: dir }), { env: {}, testRunner: RED })).stdout)).toMatchObject({ decision: 'block' });
  });

  it('runs a learned stall score from a policy file over the same steps', async () => {
    const dir = project({ tests: { command: 'unused' }, toolGuard: { enabled: false }, policy: 'stall-policy.json' });
    const weights = { errorRate: 8, repeatedOutputs: 0, repeatedActions: 0, nearDuplicateOutputs: 0, sinceNewFile: 0, revisitedSteps: 0, sinceNewStep: 0, ruleFinding: 0 };
    writeFileSync(join(dir, 'stall-policy.json'), JSON.stringify(rules({ detector: 'score', model: { version: 1, window: 4, bias: -6, weights, threshold: 0.8 } })));
    // One failure in a window of one: errorRate 1, the score 0.88.
    await runHook('claude-code', post(dir), { env: {} });
    const answered = await runHook('claude-code', stop({ cwd: dir }), { env: {}, testRunner: RED });
    expect(JSON.parse(answered.stdout).systemMessage).toMatch(/learned stall score 0\.88, at or above 0\.80: mostly failures/);
  });

  it('keeps no steps when the policy has no stall condition over steps', async () => {
    const dir = project();
    await runHook('claude-code', post(dir), { env: {} });
    expect(state(dir)?.steps).toBeUndefined();
  });
});

describe('runHook on a host that stops an identical call itself (Gemini CLI)', () => {
  const event = (dir: string, name: 'BeforeTool' | 'AfterTool') =>
    JSON.stringify({
      session_id: 's',
      cwd: dir,
      hook_event_name: name,
      tool_name: 'run_shell_command',
      tool_input: { command: 'npm test', description: 'Run the tests' },
      ...(name === 'AfterTool' ? { tool_response: { llmContent: 'Output: not ok 2 - auth\nExit Code: 1' } } : {}),
    });

  it('hands the run to a person with the refusal at the 4th call, before the host stops the 5th, records it, and does not hand off again at a stop', async () => {
    const dir = project({ tests: { command: 'unused' }, outcomesFile: 'outcomes.jsonl' });
    for (let n = 1; n <= 3; n++) {
      expect((await runHook('gemini', event(dir, 'BeforeTool'), { env: {} })).stdout).toBe('');
      const after = await runHook('gemini', event(dir, 'AfterTool'), { env: {} });
      expect(after.stdout === '' ? 'none' : 'nudge').toBe(n === 3 ? 'nudge' : 'none');
    }
    const refused = JSON.parse((await runHook('gemini', event(dir, 'BeforeTool'), { env: {} })).stdout) as Record<string, string>;
    expect(refused.decision).toBe('deny');
    expect(refused.reason).toMatch(/refused once so far\..*A person has been asked to look/);
    expect(refused.systemMessage).toMatch(/^stopwise: the agent needs a person\. The agent keeps repeating `run_shell_command` `npm test`/);
    const records = () => readFileSync(join(dir, 'outcomes.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { outcome: { exit: string; question: string } });
    expect(records()).toHaveLength(1);
    expect(records()[0]?.outcome).toMatchObject({ exit: 'need_help', question: refused.systemMessage });
    // The model obeys and ends its turn: the run ends, the hand-off is not made twice.
    const stopped = await runHook('gemini', JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'AfterAgent', prompt: 'fix it', prompt_response: 'I need help.', stop_hook_active: false }), { env: {}, testRunner: UNTESTED });
    expect(stopped).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(records()).toHaveLength(1);
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
