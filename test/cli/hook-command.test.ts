import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HOOK_HOSTS, HOSTS } from '../../src/hosts/host.js';
import { bind, contract, payloadText, readOutput, schemaProblems } from '../hosts/host-fixtures.js';
import { startLoopbackDecisionModel, systemOneAnswer } from '../hosts/loopback-decision-model.js';
import { loadedModules } from '../support/loaded-modules.js';
import { CLI, HOOK_FREE_ENV, runCli, type CliRun } from './run-cli.js';

// `stopwise hook <host>` as the hosts run it: the built CLI as a child process, its stdin the host's payload. The
// hook's decisions are tested in-process (test/hosts); here, what the process itself does.

/** Tests that fail, and leave a mark that they ran. */
const RED = "touch tests-ran; printf 'TAP version 13\\n1..2\\nok 1 - login works\\nnot ok 2 - auth > refreshes\\n'; exit 1";
const GREEN = "printf 'TAP version 13\\n1..1\\nok 1 - login works\\n'";

const folders: string[] = [];
let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function project(config: Record<string, unknown> = {}, tests = RED): string {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-hook-cli-'));
  folders.push(dir);
  writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'sh run-tests.sh' }, ...config }));
  writeFileSync(join(dir, 'run-tests.sh'), `${tests}\n`);
  return dir;
}

function hook(host: string, dir: string, input: string, env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return runCli(['hook', host], { cwd: dir, input, env: { ...HOOK_FREE_ENV, ...env }, timeoutMs: 60_000 });
}

const asRun = (run: CliRun) => ({ exitCode: run.code ?? -1, stdout: run.stdout, stderr: run.stderr });

describe('stopwise hook <host>, as a child process', { timeout: 120_000 }, () => {
  it.each(HOOK_HOSTS)("%s: blocks a stop with failing tests in the host's own answer, and answers a tool call without running them", async (name) => {
    const spec = contract(name);
    const dir = project();
    const stop = await hook(name, dir, payloadText(name, spec.session.stop, dir));
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.stderr).toBe('');
    const block = bind(spec.stopAnswers.block, readOutput(asRun(stop)));
    expect(block?.reason, stop.stdout).toMatch(/^1 test failed: auth > refreshes\. Fix it and run the tests again before you finish\.$/);
    expect(schemaProblems(name, spec.stopSchema, JSON.parse(stop.stdout))).toEqual([]);

    rmSync(join(dir, 'tests-ran'));
    const tool = await hook(name, dir, payloadText(name, spec.session.pre, dir));
    expect(tool).toEqual({ code: 0, signal: null, stdout: '', stderr: '' });
    expect(existsSync(join(dir, 'tests-ran'))).toBe(false);
  });

  it.each(HOOK_HOSTS)('%s: exits with its non-blocking code and one line on unreadable stdin, never an answer, never a stack trace', async (name) => {
    const dir = project();
    for (const input of ['{"hook_event_name": ', '', '[1, 2]', JSON.stringify(contract(name).unreadable[0]?.payload ?? {})]) {
      const run = await hook(name, dir, input);
      expect(run.code, input).toBe(HOSTS[name].unreadableExitCode);
      expect(run.stdout, input).toBe('');
      expect(run.stderr, input).toMatch(new RegExp(`^stopwise hook ${name}: [^\\n]*; nothing was checked and nothing is blocked\\.\\n$`));
    }
    expect(existsSync(join(dir, 'tests-ran'))).toBe(false);
  });

  it('refuses stdin above 16 MiB, as unreadable, and reads a large but sane one', async () => {
    const dir = project();
    const stop = JSON.parse(payloadText('claude-code', 'stop.json', dir)) as Record<string, unknown>;
    const huge = await hook('claude-code', dir, JSON.stringify({ ...stop, last_assistant_message: 'x'.repeat(17 * 1024 * 1024) }));
    expect(huge).toMatchObject({ code: 1, stdout: '', stderr: 'stopwise hook claude-code: stdin is larger than 16777216 bytes; nothing was checked and nothing is blocked.\n' });
    const large = await hook('copilot', dir, JSON.stringify({ ...JSON.parse(payloadText('copilot', 'agent-stop.json', dir)), padding: 'y'.repeat(3 * 1024 * 1024) }));
    expect(JSON.parse(large.stdout)).toMatchObject({ decision: 'block' });
  });

  it('asks a decision model over HTTP with the turn, blocks below the threshold with the task, and lets the re-entry stop without asking again', async () => {
    const server = await startLoopbackDecisionModel(() => systemOneAnswer({ acceptanceCovered: 0.55, noOpenQuestions: 0.92 }));
    closeServer = server.close;
    const decisionModel = { client: 'system-one', baseURL: server.baseURL, model: 'system-one', apiKeyEnv: 'STOPWISE_TEST_KEY', timeoutMs: 120_000 };
    const dir = project({ task: 'Reject expired tokens', acceptance: ['expired tokens get a 401'], decisionModel }, GREEN);
    const env = { STOPWISE_TEST_KEY: 'test-key-123' };
    const stop = JSON.parse(payloadText('claude-code', 'stop.json', dir)) as Record<string, unknown>;
    const first = await hook('claude-code', dir, JSON.stringify(stop), env);
    expect(JSON.parse(first.stdout)).toEqual({
      decision: 'block',
      reason: expect.stringMatching(/^The decision model is not convinced the task is done: acceptanceCovered = 0\.55 .*\n\nTask: Reject expired tokens\nAcceptance criteria:\n- expired tokens get a 401$/s),
    });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer test-key-123');
    expect(server.requests[0]?.body).toMatchObject({ state: { task: 'Reject expired tokens', output: stop.last_assistant_message, tests: { passed: true, ran: 1 } } });
    const second = await hook('claude-code', dir, JSON.stringify({ ...stop, stop_hook_active: true }), env);
    expect(second).toMatchObject({ code: 0, stdout: '' });
    expect(server.requests).toHaveLength(1);
  });

  it('prints its help, and exits 1, never 2 (a block for Claude Code and Codex), on a usage error, saying the stop goes ahead', async () => {
    const help = await runCli(['hook', '--help'], { env: HOOK_FREE_ENV });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: stopwise hook <claude-code\|codex\|cursor\|copilot\|gemini>\n/);
    for (const args of [['hook'], ['hook', 'vscode'], ['hook', 'claude'], ['hook', 'codex', 'extra'], ['hook', 'codex', '--verbose'], ['hook', '--host=codex']]) {
      const run = await runCli(args, { env: HOOK_FREE_ENV, input: '{}' });
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^stopwise hook: (name the host|unknown host|unexpected argument|unknown option)[^]*\nThe stop goes ahead unchecked; fix the hook command in the host's settings\.\n$/);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it.skipIf(spawnSync('script', ['--version']).status !== 0)('says what it reads when run by hand on a terminal, then reads it', () => {
    const dir = project();
    const payload = JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'Notification', message: 'hi' });
    // `script` gives the hook a terminal as stdin; the input ends with Ctrl-D, as a person would end it
    const run = spawnSync('script', ['-qec', `"${process.execPath}" "${CLI}" hook claude-code`, '/dev/null'], { cwd: dir, input: `${payload}\n\u0004`, encoding: 'utf8', env: HOOK_FREE_ENV, timeout: 30_000 });
    expect(run.status, run.stdout).toBe(0);
    expect(run.stdout).toContain("stopwise hook claude-code: reading the hook JSON that Claude Code sends on stdin (end it with Ctrl-D); see `stopwise hook --help`");
    const piped = spawnSync(process.execPath, [CLI, 'hook', 'claude-code'], { cwd: dir, input: payload, encoding: 'utf8', env: HOOK_FREE_ENV });
    expect(piped).toMatchObject({ status: 0, stdout: '', stderr: '' });
  });
});

describe('what `stopwise hook` loads', { timeout: 60_000 }, () => {
  const BIN = join(CLI, '..');

  /** The files of the built CLI that `stopwise <args>` loads, relative to dist/bin. */
  function loadedFiles(args: readonly string[], cwd: string, input = ''): string[] {
    const urls = loadedModules([CLI, ...args], { cwd, input, env: HOOK_FREE_ENV }).filter((url) => url.startsWith('file:'));
    return [...new Set(urls.map((url) => relative(BIN, new URL(url).pathname)))].sort();
  }

  it('loads for a tool event the command and the hook bundle, two files, whatever the configuration names, and the guard runs', () => {
    const dir = project({ decisionModel: { client: 'system-one', model: 'model-1' }, task: 't' });
    for (const name of HOOK_HOSTS) {
      const spec = contract(name);
      expect(loadedFiles(['hook', name], dir, payloadText(name, spec.session.post, dir)), name).toEqual(['hook/index.js', 'stopwise.js']);
    }
    expect(readdirSync(join(dir, '.stopwise/state')).filter((name) => name.startsWith('session-'))).toHaveLength(HOOK_HOSTS.length);
  });

  it('loads the configuration schema for a tool event only when the configuration sets tool-guard keys', () => {
    const dir = project({ toolGuard: { ladder: { nudges: 2 } } }, GREEN);
    expect(loadedFiles(['hook', 'claude-code'], dir, payloadText('claude-code', contract('claude-code').session.post, dir))).toContain('hook/stop/stopwise-config.js');
  });

  it('loads the stop hook for a stop, and none of the hook for any other command', () => {
    const dir = project({}, GREEN);
    expect(loadedFiles(['hook', 'claude-code'], dir, payloadText('claude-code', 'stop.json', dir))).toContain('hook/stop/stop-hook.js');
    const version = loadedFiles(['--version'], dir);
    expect(version.length).toBeGreaterThan(1);
    expect(version.some((file) => file.startsWith('hook/'))).toBe(false);
  });
});
