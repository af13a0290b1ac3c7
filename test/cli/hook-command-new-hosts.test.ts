import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeHostToolAnswer } from '../../src/hosts/host-tool-events.js';
import type { ToolGuardAnswer } from '../../src/hosts/tool-event.js';
import { payload } from '../hosts/fixture-payloads.js';
import { hostOutputProblems, toolOutputProblems } from '../hosts/host-output-schemas.js';
import { HOOK_FREE_ENV, runCli, type CliRun } from './run-cli.js';

const RED = "printf 'TAP version 13\\n1..3\\nok 1 - login works\\nnot ok 2 - auth > rejects expired token\\nnot ok 3 - auth > refreshes\\n'; exit 1";
const GREEN = "printf 'TAP version 13\\n1..2\\nok 1 - login works\\nok 2 - auth > rejects expired token\\n'";
const NONE = 'echo nothing to see';

type NewHost = 'copilot' | 'gemini';

function project(tests: string, config: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-new-host-'));
  writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'sh run-tests.sh' }, ...config }));
  writeFileSync(join(dir, 'run-tests.sh'), `${tests}\n`);
  return dir;
}

/** The host's stop payload (fixture), for this project and session. */
function stopPayload(host: NewHost, dir: string, session = 'session-1', extra: Record<string, unknown> = {}): Record<string, unknown> {
  const base = host === 'copilot' ? payload('copilot', 'agent-stop') : payload('gemini', 'after-agent');
  return { ...base, ...(host === 'copilot' ? { sessionId: session } : { session_id: session }), cwd: dir, ...extra };
}

function hook(host: NewHost, dir: string, input: unknown, env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return runCli(['hook', host], { cwd: dir, input: typeof input === 'string' ? input : JSON.stringify(input), env: { ...HOOK_FREE_ENV, ...env }, timeoutMs: 60_000 });
}

/** The answer on stdout, checked against the host's schema; `undefined` when the hook printed nothing. */
function answer(host: NewHost, run: CliRun): Record<string, unknown> | undefined {
  expect(run.code, run.stderr).toBe(0);
  if (run.stdout === '') return undefined;
  const output = JSON.parse(run.stdout) as Record<string, unknown>;
  expect(hostOutputProblems(host, output)).toEqual([]);
  return output;
}

const BLOCK = { copilot: 'block', gemini: 'deny' } as const;

describe.each(['copilot', 'gemini'] as const)('stopwise hook %s, stop side, through the built CLI', { timeout: 120_000 }, (host) => {
  it('blocks a stop with failing tests, naming them, then hands off when they still fail', async () => {
    const dir = project(RED);
    const first = answer(host, await hook(host, dir, stopPayload(host, dir)));
    expect(first).toMatchObject({ decision: BLOCK[host], reason: expect.stringMatching(/^2 tests failed: auth > rejects expired token; auth > refreshes/) });
    const second = await hook(host, dir, stopPayload(host, dir, 'session-1', { stop_hook_active: true }));
    const handoff = answer(host, second);
    expect(second.stderr).toMatch(/stopwise: the tests still fail after the agent was asked to fix them/);
    if (host === 'copilot') expect(handoff).toBeUndefined();
    else expect(handoff).toEqual({ systemMessage: expect.stringMatching(/^stopwise: the tests still fail after the agent was asked to fix them/) });
  });

  it('lets the agent stop with passing tests: no output at all', async () => {
    const dir = project(GREEN);
    const run = await hook(host, dir, stopPayload(host, dir));
    expect(answer(host, run)).toBeUndefined();
    expect(run.stderr).toBe('');
  });

  it('blocks a stop where no test ran', async () => {
    const dir = project(NONE);
    expect(answer(host, await hook(host, dir, stopPayload(host, dir)))).toMatchObject({ decision: BLOCK[host], reason: expect.stringMatching(/no tests? ran|No test ran/i) });
  });

  it('answers a payload of a newer version, with fields it does not know', async () => {
    const dir = project(RED);
    const newer = { ...(host === 'copilot' ? payload('copilot', 'agent-stop.newer') : payload('gemini', 'after-agent.newer')), cwd: dir, stop_hook_active: false };
    expect(answer(host, await hook(host, dir, newer))).toMatchObject({ decision: BLOCK[host] });
  });

  it('never blocks on unreadable stdin, and prints one line without a stack trace', async () => {
    const dir = project(RED);
    const badToolEvent = host === 'copilot' ? { toolName: 7, toolArgs: {} } : { hook_event_name: 'BeforeTool', tool_name: '' };
    for (const input of ['not json', '[1, 2]', '"text"', '', JSON.stringify(badToolEvent)]) {
      const run = await hook(host, dir, input);
      expect(run.code, `${input}: ${run.stderr}`).toBe(host === 'copilot' ? 0 : 1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(new RegExp(`^stopwise hook ${host}: .*; nothing was checked and nothing is blocked\\.\\n$`));
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });
});

describe('host caps on consecutive blocks, through the built CLI', { timeout: 180_000 }, () => {
  it('hands off on the attempt Copilot would end by its cap of 8, whatever maxConsecutiveBlocks says', async () => {
    const dir = project(RED, { maxConsecutiveBlocks: 20, policy: { stallRounds: 50, maxSteps: 50 } });
    for (let attempt = 1; attempt <= 7; attempt++) {
      // a different final message each time, so that the stall rule stays out of it
      const run = await hook('copilot', dir, stopPayload('copilot', dir, 'capped', { lastAssistantMessage: `attempt ${attempt}` }));
      expect(answer('copilot', run), `attempt ${attempt}: ${run.stderr}`).toMatchObject({ decision: 'block' });
    }
    const eighth = await hook('copilot', dir, stopPayload('copilot', dir, 'capped'));
    expect(answer('copilot', eighth)).toBeUndefined();
    expect(eighth.stderr).toMatch(/^stopwise: the tests still fail after the agent was asked to fix them/);
  });
});

describe.each(['copilot', 'gemini'] as const)('stopwise hook %s, tool events, through the built CLI', { timeout: 120_000 }, (host) => {
  const events =
    host === 'copilot'
      ? [payload('copilot', 'pre-tool-use'), payload('copilot', 'pre-tool-use.vscode'), payload('copilot', 'post-tool-use'), payload('copilot', 'post-tool-use-failure')]
      : [payload('gemini', 'before-tool'), payload('gemini', 'after-tool.shell-failed'), payload('gemini', 'after-tool.edit')];

  it('reads every tool event and answers what the tool guard says: here nothing, so nothing is printed and no test runs', async () => {
    const dir = project(`touch ran; ${RED}`);
    for (const event of events) {
      const run = await hook(host, dir, { ...event, cwd: dir });
      expect(run, JSON.stringify(event)).toEqual({ code: 0, signal: null, stdout: '', stderr: '' });
    }
    expect(existsSync(join(dir, 'ran'))).toBe(false);
    expect(existsSync(join(dir, '.stopwise'))).toBe(false);
  });

  it('answers nothing to events it does not register', async () => {
    const dir = project(RED);
    const other = host === 'copilot' ? { sessionId: 's', timestamp: 1, cwd: dir, source: 'startup' } : { session_id: 's', cwd: dir, hook_event_name: 'BeforeAgent', prompt: 'hi' };
    expect(await hook(host, dir, other)).toEqual({ code: 0, signal: null, stdout: '', stderr: '' });
  });

  it('encodes each kind of tool guard answer for the event it came from, as the hook prints it', () => {
    const answers: readonly ToolGuardAnswer[] = [{ kind: 'none' }, { kind: 'context', message: 'npm test failed 3 times the same way' }, { kind: 'deny', reason: 'npm test failed 5 times in a row; fix src/auth.js' }];
    const pre = host === 'copilot' ? 'preToolUse' : 'BeforeTool';
    const [none, context, deny] = answers.map((guard) => encodeHostToolAnswer(host, pre, guard));
    expect(none).toEqual({ exitCode: 0 });
    expect(deny?.stdout).toBeDefined();
    expect(toolOutputProblems(host, pre, deny?.stdout)).toEqual([]);
    if (host === 'copilot') {
      expect(deny?.stdout).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'npm test failed 5 times in a row; fix src/auth.js' });
      expect(context?.stdout).toBeUndefined();
      expect(encodeHostToolAnswer(host, 'postToolUseFailure', answers[1] as ToolGuardAnswer)).toEqual({ exitCode: 2, stderr: 'npm test failed 3 times the same way' });
    } else {
      expect(deny?.stdout).toEqual({ decision: 'deny', reason: 'npm test failed 5 times in a row; fix src/auth.js' });
      expect(toolOutputProblems(host, pre, context?.stdout)).toEqual([]);
      const after = encodeHostToolAnswer(host, 'AfterTool', answers[1] as ToolGuardAnswer);
      expect(toolOutputProblems(host, 'AfterTool', after.stdout)).toEqual([]);
    }
    expect(() => encodeHostToolAnswer(host, 'agentStop', answers[0] as ToolGuardAnswer)).toThrow(TypeError);
  });
});

describe('stopwise init and doctor for copilot and gemini, on scratch projects', { timeout: 180_000 }, () => {
  function scratch(): string {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-new-host-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'scratch', devDependencies: { stopwise: '*' } }));
    writeFileSync(join(dir, 'run-tests.sh'), `${GREEN}\n`);
    return dir;
  }
  const cli = (args: readonly string[], dir: string) => runCli(args, { cwd: dir, env: HOOK_FREE_ENV, timeoutMs: 60_000 });

  it('copilot: writes .github/hooks/stopwise.json with agentStop and the tool events, changes nothing the second time, and doctor passes', async () => {
    const dir = scratch();
    const init = await cli(['init', 'copilot', '--test-command', 'sh run-tests.sh'], dir);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('.github/hooks/stopwise.json: hooks added under agentStop, preToolUse, postToolUse, postToolUseFailure');
    const file = JSON.parse(readFileSync(join(dir, '.github/hooks/stopwise.json'), 'utf8')) as { version: number; hooks: Record<string, Record<string, unknown>[]> };
    expect(file.version).toBe(1);
    expect(file.hooks.agentStop?.[0]).toMatchObject({ type: 'command', cwd: '.', timeoutSec: expect.any(Number) });
    expect(file.hooks.preToolUse?.[0]).toMatchObject({ matcher: 'bash|powershell|edit|create|apply_patch', timeoutSec: 30 });
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe('.stopwise/\n');
    const again = await cli(['init', 'copilot'], dir);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('the stopwise stop hook is already there, left as it is');

    const doctor = await cli(['doctor', 'copilot', '--json'], dir);
    const report = JSON.parse(doctor.stdout) as { ok: boolean; checks: { hosts: { lines: { status: string; text: string }[] } } };
    expect(report.ok, doctor.stdout).toBe(true);
    expect(report.checks.hosts.lines).toEqual([
      { status: 'ok', text: expect.stringMatching(/^\.github\/hooks\/stopwise\.json: stop hook registered, timeout \d+ s, above the hook's deadline/) },
      { status: 'ok', text: '.github/hooks/stopwise.json: tool hooks registered (preToolUse, postToolUse, postToolUseFailure)' },
    ]);
  });

  it('gemini: merges into an existing .gemini/settings.json, keeping its settings, and doctor finds a timeout set too low', async () => {
    const dir = scratch();
    mkdirSync(join(dir, '.gemini'));
    writeFileSync(join(dir, '.gemini/settings.json'), JSON.stringify({ model: { name: 'gemini-3-pro' }, hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'echo hi' }] }] } }));
    const init = await cli(['init', 'gemini', '--test-command', 'sh run-tests.sh'], dir);
    expect(init.code, init.stderr).toBe(0);
    const settings = JSON.parse(readFileSync(join(dir, '.gemini/settings.json'), 'utf8')) as { model: unknown; hooks: Record<string, Record<string, unknown>[]> };
    expect(settings.model).toEqual({ name: 'gemini-3-pro' });
    expect(settings.hooks.SessionStart).toHaveLength(1);
    expect(settings.hooks.AfterAgent?.[0]).toMatchObject({ hooks: [{ type: 'command', name: 'stopwise', timeout: expect.any(Number) }] });
    expect(settings.hooks.BeforeTool?.[0]).toMatchObject({ matcher: '^(run_shell_command|write_file|replace)$' });
    expect((await cli(['doctor', 'gemini'], dir)).code).toBe(0);

    const stop = settings.hooks.AfterAgent?.[0]?.hooks as Record<string, unknown>[];
    writeFileSync(join(dir, '.gemini/settings.json'), JSON.stringify({ ...settings, hooks: { ...settings.hooks, AfterAgent: [{ hooks: [{ ...stop[0], timeout: 60 }] }] } }));
    const low = await cli(['doctor', 'gemini'], dir);
    expect(low.code).toBe(1);
    expect(low.stdout).toMatch(/the stop hook's timeout \(0\.06 s\) is not above the hook's deadline .*set "timeout": \d+000 on the stopwise entry/);
  });

  it('writes nothing at all when the host file cannot be read', async () => {
    const dir = scratch();
    mkdirSync(join(dir, '.gemini'));
    writeFileSync(join(dir, '.gemini/settings.json'), '{ not json');
    const init = await cli(['init', 'gemini', '--test-command', 'sh run-tests.sh'], dir);
    expect(init.code).toBe(1);
    expect(init.stderr).toMatch(/\.gemini\/settings\.json: .*nothing was written/);
    expect(existsSync(join(dir, 'stopwise.config.json'))).toBe(false);
    expect(existsSync(join(dir, '.gitignore'))).toBe(false);
    expect(readFileSync(join(dir, '.gemini/settings.json'), 'utf8')).toBe('{ not json');
  });
});
