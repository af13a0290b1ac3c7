import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../src/cli/doctor-report.js';
import type { HookHost } from '../../src/hosts/hook-host.js';
import { HOOK_SETTINGS_PATHS, mergeStopHook } from '../../src/hosts/install-stop-hook.js';
import { chatBody } from '../decision-model/loopback-server.js';
import { startLoopbackDecisionModel, systemOneAnswer, type LoopbackReply } from '../hosts/loopback-decision-model.js';
import { HOOK_FREE_ENV, runCli, type CliRun } from './run-cli.js';

const ENV = HOOK_FREE_ENV;
const KEY = 'sk-doctor-secret-7f3a9c';
const GREEN_TAP = "printf 'TAP version 13\\n1..2\\nok 1 - login works\\nok 2 - auth > rejects expired token\\n'";
const NODE_TESTS = { command: 'node', args: ['--test', '--test-reporter=tap'] };
const SH_TESTS = { command: 'sh run-tests.sh' };

interface Scratch {
  readonly config?: Record<string, unknown> | string;
  /** The host settings file: its parsed value, raw text, or the stopwise entry with this timeout (the default). */
  readonly settings?: { host: HookHost; timeout?: number } | { host: HookHost; value: unknown } | { host: HookHost; text: string };
  readonly script?: string;
}

/** A project folder with a real node:test suite, a shell test script, and the files asked for. */
function scratch(options: Scratch = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-doctor-'));
  mkdirSync(join(dir, 'test'));
  writeFileSync(
    join(dir, 'test/math.test.mjs'),
    "import test from 'node:test';\nimport assert from 'node:assert/strict';\ntest('adds', () => assert.equal(1 + 1, 2));\ntest('subtracts', () => assert.equal(3 - 1, 2));\n",
  );
  writeFileSync(join(dir, 'run-tests.sh'), `${options.script ?? GREEN_TAP}\n`);
  const config = options.config ?? { tests: NODE_TESTS, judge: { client: 'none' } };
  writeFileSync(join(dir, 'stopwise.config.json'), typeof config === 'string' ? config : JSON.stringify(config));
  const settings = options.settings ?? { host: 'claude-code' };
  const path = join(dir, HOOK_SETTINGS_PATHS[settings.host]);
  mkdirSync(join(path, '..'), { recursive: true });
  if ('text' in settings) writeFileSync(path, settings.text);
  else if ('value' in settings) writeFileSync(path, JSON.stringify(settings.value));
  else {
    const merged = mergeStopHook(settings.host, undefined, settings.timeout ?? 330);
    if (!merged.ok) throw new Error(merged.message);
    writeFileSync(path, JSON.stringify(merged.value));
  }
  return dir;
}

function doctor(dir: string, args: readonly string[] = [], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return runCli(['doctor', ...args], { cwd: dir, env: { ...ENV, ...env }, timeoutMs: 60_000 });
}

function json(run: CliRun): DoctorReport {
  return JSON.parse(run.stdout) as DoctorReport;
}

/** The lines listed under "N problems:" at the end of the human report. */
function problemLines(run: CliRun): string[] {
  const lines = run.stdout.trimEnd().split('\n');
  const start = lines.findIndex((line) => /^\d+ problems?:$/.test(line));
  return start === -1 ? [] : lines.slice(start + 1).map((line) => line.replace(/^ {2}- /, ''));
}

/** Every file under `dir` with its size and modification time. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      const info = statSync(path);
      if (info.isDirectory()) walk(path);
      else files[path.slice(dir.length)] = `${info.size}:${info.mtimeMs}`;
    }
  };
  walk(dir);
  return files;
}

let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
});

async function decisionModel(reply: LoopbackReply) {
  const server = await startLoopbackDecisionModel(() => reply);
  closeServer = server.close;
  return server;
}

function judged(baseURL: string): Record<string, unknown> {
  return {
    task: 'Reject expired tokens',
    acceptance: ['expired tokens get a 401'],
    tests: SH_TESTS,
    judge: { client: 'system-one', baseURL, model: 'system-one', apiKeyEnv: 'STOPWISE_TEST_KEY', timeoutMs: 2_000 },
  };
}

describe('stopwise doctor: a sound setup', () => {
  it('exits 0 with every check ok, the evidence of a real node:test run, the sample answers, and writes nothing', async () => {
    const dir = scratch();
    const before = snapshot(dir);
    const run = await doctor(dir);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('ok       stopwise.config.json is valid\n');
    expect(run.stdout).toContain(
      "ok       .claude/settings.json: stop hook registered, timeout 330 s, above the hook's deadline (320 s: tests.timeoutMs + 2 × judge.timeoutMs + 20 s)",
    );
    expect(run.stdout).toMatch(/ok {7}tests: `node --test --test-reporter=tap` took \d+\.\d s: 2 ran, 0 failed, 0 skipped \(read: tap from stdout\)/);
    expect(run.stdout).toContain('ok       decision model: none (judge.client "none")');
    expect(run.stdout).toContain('sample answers (claude-code, the first stop of a session)');
    expect(run.stdout).toMatch(/ {2}red {6}block {4}\{"decision":"block","reason":"1 test failed: sample > rejects expired tokens\./);
    expect(run.stdout).toContain('  green    allow    (no output: the stop goes ahead)');
    expect(run.stdout).toMatch(/ {2}no tests block {4}\{"decision":"block","reason":"No tests ran/);
    expect(run.stdout.trimEnd().endsWith('the setup is sound')).toBe(true);
    expect(snapshot(dir)).toEqual(before);
  });

  it('prints the same report as JSON with --json', async () => {
    const run = await doctor(scratch(), ['--json']);
    expect(run.code).toBe(0);
    const report = json(run);
    expect(report).toMatchObject({ ok: true, problems: [], warnings: [] });
    expect(report.checks.config.status).toBe('ok');
    expect(report.checks.hosts).toMatchObject({ status: 'ok', hosts: [{ host: 'claude-code', file: '.claude/settings.json', registered: true, timeoutSeconds: 330, deadlineSeconds: 320 }] });
    expect(report.checks.tests).toMatchObject({ status: 'ok', command: 'node --test --test-reporter=tap', reader: 'tap', source: 'stdout', ran: 2, failed: 0, skipped: 0, failing: [] });
    expect(report.checks.tests.durationMs).toEqual(expect.any(Number));
    expect(report.checks.decisionModel).toMatchObject({ status: 'ok', client: 'none', evaluations: 0 });
    const [samples] = report.checks.samples.hosts;
    expect(samples?.host).toBe('claude-code');
    expect(samples?.red.kind).toBe('block');
    expect(JSON.parse(samples?.red.stdout ?? '')).toMatchObject({ decision: 'block', reason: expect.stringContaining('sample > rejects expired tokens') });
    expect(samples?.green).toEqual({ kind: 'allow', stdout: '' });
    expect(samples?.noTests.kind).toBe('block');
  });

  it('shows the failing tests of a red run read from a JUnit report, which is evidence, not a setup problem', async () => {
    const dir = scratch({
      config: { tests: { command: 'node', args: ['--test', '--test-reporter=junit', '--test-reporter-destination=junit.xml'], report: { format: 'junit', path: 'junit.xml' } } },
    });
    writeFileSync(
      join(dir, 'test/auth.test.mjs'),
      "import test from 'node:test';\nimport assert from 'node:assert/strict';\ntest('rejects expired tokens', () => assert.equal(200, 401));\ntest.skip('refreshes', () => {});\n",
    );
    const run = await doctor(dir, ['--json']);
    expect(run.code, run.stdout).toBe(0);
    const report = json(run);
    expect(report.checks.tests).toMatchObject({ status: 'ok', reader: 'junit', source: 'junit.xml', ran: 3, failed: 1, skipped: 1, failing: ['rejects expired tokens'] });
    expect(report.checks.tests.lines[0]?.text).toMatch(/3 ran, 1 failed, 1 skipped \(read: junit from junit\.xml\); failing: rejects expired tokens$/);
  });

  it('shows a warning without making it a problem: exit-code evidence, a Cursor hook with no timeout', async () => {
    const dir = scratch({
      config: { tests: { ...SH_TESTS, report: { format: 'exit-code' } } },
      settings: { host: 'cursor', value: { version: 1, hooks: { stop: [{ command: 'npx stopwise hook cursor', loop_limit: 5 }] } } },
    });
    const run = await doctor(dir);
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/warning {2}tests: the evidence is the exit code alone/);
    expect(run.stdout).toMatch(/warning {2}\.cursor\/hooks\.json: stop hook registered with no timeout, and Cursor documents no default: set "timeout": 330/);
    expect(run.stdout).toContain('sample answers (cursor, the first stop of a session)');
    expect(run.stdout).toContain('the setup is sound (2 warnings)');
  });

  it("accepts a Claude Code hook with no timeout when the host's default (600 s) is above the deadline", async () => {
    const dir = scratch({ settings: { host: 'claude-code', value: { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'npx stopwise hook claude-code' }] }] } } } });
    const run = await doctor(dir, ['claude-code']);
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toContain("ok       .claude/settings.json: stop hook registered with no timeout: Claude Code's default of 600 s applies");
  });
});

describe('stopwise doctor: each problem exits 1 with its line', () => {
  it('names an unknown key and the nearest known one, at every level, in the text and in --json', async () => {
    const dir = scratch({ config: { tests: { comand: 'npm test' }, maxConsecutiveBlock: 2 } });
    const run = await doctor(dir);
    expect(run.code).toBe(1);
    const problems = problemLines(run);
    expect(problems).toContain('stopwise.config.json: unknown key "maxConsecutiveBlock" (did you mean "maxConsecutiveBlocks"?)');
    expect(problems).toContain('stopwise.config.json: tests: unknown key "comand" (did you mean "command"?)');
    expect(problems).toContain('stopwise.config.json: tests.command: required (a non-empty string)');
    expect(run.stdout).toContain('skipped  the tests were not run: they need a valid configuration');
    const report = json(await doctor(dir, ['--json']));
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual(problems);
  });

  it('reports a missing configuration file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-doctor-empty-'));
    const run = await doctor(dir, ['codex']);
    expect(run.code).toBe(1);
    expect(problemLines(run)).toEqual([
      expect.stringMatching(/^no stopwise\.config\.json in .* or any parent folder; `stopwise init <host>` writes one$/),
      '.codex/hooks.json: not found; `stopwise init codex` writes it',
    ]);
  });

  it('reports a missing settings file for the host named, and no host at all when none is named', async () => {
    const dir = scratch({ settings: { host: 'codex' } });
    const named = await doctor(dir, ['claude-code']);
    expect(named.code).toBe(1);
    expect(problemLines(named)).toEqual(['.claude/settings.json: not found; `stopwise init claude-code` writes it']);
    const bare = mkdtempSync(join(tmpdir(), 'stopwise-doctor-'));
    writeFileSync(join(bare, 'stopwise.config.json'), JSON.stringify({ tests: SH_TESTS }));
    writeFileSync(join(bare, 'run-tests.sh'), `${GREEN_TAP}\n`);
    const none = await doctor(bare);
    expect(none.code).toBe(1);
    expect(problemLines(none)).toEqual([
      'no host is registered: none of .claude/settings.json, .codex/hooks.json, .cursor/hooks.json, .github/hooks/stopwise.json, .gemini/settings.json is in the project; `stopwise init <host>` sets one up',
    ]);
  });

  it('reports a malformed settings file as a problem line, not a crash', async () => {
    const run = await doctor(scratch({ settings: { host: 'claude-code', text: '{ "hooks": ' } }));
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
    expect(problemLines(run)).toEqual([expect.stringMatching(/^\.claude\/settings\.json: not valid JSON \(.+\)$/)]);
    const shape = await doctor(scratch({ settings: { host: 'codex', value: { hooks: { Stop: { command: 'x' } } } } }));
    expect(problemLines(shape)).toEqual(['.codex/hooks.json: "hooks.Stop" must be an array, got an object']);
  });

  it('reports a settings file without the stopwise stop hook', async () => {
    const run = await doctor(scratch({ settings: { host: 'claude-code', value: { hooks: { Stop: [{ hooks: [{ type: 'command', command: './notify.sh' }] }] } } } }));
    expect(run.code).toBe(1);
    expect(problemLines(run)).toEqual([
      '.claude/settings.json: no stopwise stop hook (`stopwise hook claude-code` under hooks.Stop); `stopwise init claude-code` adds it',
    ]);
  });

  it("reports a timeout that is not above the hook's deadline, with the timeout to set", async () => {
    const run = await doctor(scratch({ config: { tests: { ...SH_TESTS, timeoutMs: 60_000 } }, settings: { host: 'codex', timeout: 60 } }));
    expect(run.code).toBe(1);
    expect(problemLines(run)).toEqual([
      ".codex/hooks.json: the stop hook's timeout (60 s) is not above the hook's deadline (140 s: tests.timeoutMs + 2 × judge.timeoutMs + 20 s): Codex would kill the hook before it answers; set \"timeout\": 150 on the stopwise entry",
    ]);
  });

  it('reports a test command that cannot start', async () => {
    const run = await doctor(scratch({ config: { tests: { command: 'stopwise-no-such-test-runner', args: ['run'] } } }));
    expect(run.code).toBe(1);
    expect(problemLines(run)).toEqual([
      expect.stringMatching(/^tests: `stopwise-no-such-test-runner run` could not start \(.*ENOENT.*\); fix tests\.command$/),
    ]);
    const shell = await doctor(scratch({ config: { tests: { command: 'stopwise-no-such-test-runner --all' } } }));
    expect(problemLines(shell)).toEqual([
      expect.stringMatching(/^tests: `stopwise-no-such-test-runner --all` could not start \(exit code 127: the shell found no such command.*\); fix tests\.command$/),
    ]);
  });

  it('reports a JUnit report the command does not write as no tests ran', async () => {
    const run = await doctor(scratch({ config: { tests: { ...SH_TESTS, report: { format: 'junit', path: 'junit.xml' } } } }));
    expect(run.code).toBe(1);
    expect(problemLines(run)).toEqual([expect.stringMatching(/^tests: `sh run-tests\.sh` ran no test .*\(read: junit from junit\.xml\): .*the report file .*junit\.xml was not written/)]);
  });

  it('reports a run in which no test ran', async () => {
    const run = await doctor(scratch({ config: { tests: SH_TESTS }, script: 'echo nothing to test here' }));
    expect(run.code).toBe(1);
    expect(problemLines(run)).toEqual([expect.stringMatching(/^tests: `sh run-tests\.sh` ran no test in \d+\.\d s \(read: tap from stdout\): the output holds no tap test result$/)]);
    const report = json(await doctor(scratch({ config: { tests: SH_TESTS }, script: 'echo nothing' }), ['--json']));
    expect(report.checks.tests).toMatchObject({ status: 'problem', ran: 0, reader: 'tap' });
  });

  it('reports a decision model that refuses the key (401), with one request, the key never printed', async () => {
    const server = await decisionModel({ status: 401, json: { detail: `invalid API key ${KEY}` } });
    const run = await doctor(scratch({ config: judged(server.baseURL) }), [], { STOPWISE_TEST_KEY: KEY });
    expect(run.code).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(run.stdout).not.toContain(KEY);
    expect(run.stderr).not.toContain(KEY);
    expect(run.stdout).toContain('invalid API key [redacted]');
    const [problem, ...rest] = problemLines(run);
    expect(rest).toEqual([]);
    expect(problem).toMatch(new RegExp(`^decision model: system-one system-one at ${server.baseURL.replace(/[./]/g, '\\$&')} \\(key in STOPWISE_TEST_KEY: set\\) could not be asked: auth: `));
    expect(run.stdout).toMatch(/ {2}green {4}handoff {2}\{"systemMessage":"stopwise: the tests pass, but the decision model could not be asked/);
    const report = json(await doctor(scratch({ config: judged(server.baseURL) }), ['--json'], { STOPWISE_TEST_KEY: KEY }));
    expect(report.checks.decisionModel).toMatchObject({ status: 'problem', client: 'system-one', apiKeyEnv: 'STOPWISE_TEST_KEY', apiKeySet: true, evaluations: 1, errorKind: 'auth' });
    expect(JSON.stringify(report)).not.toContain(KEY);
  });

  it('reports a decision model on a closed port as a network error', async () => {
    const server = await decisionModel({ status: 200, json: {} });
    const baseURL = server.baseURL;
    await server.close();
    closeServer = undefined;
    const run = await doctor(scratch({ config: judged(baseURL) }), ['--json'], { STOPWISE_TEST_KEY: KEY });
    expect(run.code).toBe(1);
    const report = json(run);
    expect(report.checks.decisionModel).toMatchObject({ status: 'problem', errorKind: 'network' });
    expect(report.problems).toEqual([expect.stringMatching(/^decision model: system-one .* could not be asked: network: /)]);
  });

  it('reports a decision model whose key is not set, naming the variable', async () => {
    const server = await decisionModel(systemOneAnswer({ acceptanceCovered: 0.9, noOpenQuestions: 0.9 }));
    const run = await doctor(scratch({ config: judged(server.baseURL) }));
    expect(run.code).toBe(1);
    expect(server.requests).toHaveLength(0);
    expect(problemLines(run)).toEqual([expect.stringMatching(/^decision model \(system-one, key in STOPWISE_TEST_KEY: not set\): .*STOPWISE_TEST_KEY in the environment, named by judge\.apiKeyEnv/)]);
  });
});

describe('stopwise doctor: a reachable decision model', () => {
  it('reports it ok after exactly one request, and uses its answer for the green sample', async () => {
    const server = await decisionModel(systemOneAnswer({ acceptanceCovered: 0.2, noOpenQuestions: 0.95 }));
    const dir = scratch({ config: judged(server.baseURL) });
    const run = await doctor(dir, [], { STOPWISE_TEST_KEY: KEY });
    expect(run.code, run.stdout).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v1/systemone', headers: { authorization: `Bearer ${KEY}` } });
    expect(server.requests[0]?.body).toMatchObject({ state: { task: 'Reject expired tokens', tests: expect.anything() } });
    expect(run.stdout).not.toContain(KEY);
    expect(run.stdout).toMatch(/ok {7}decision model: system-one system-one at http:\/\/127\.0\.0\.1:\d+\/v1 answered in \d+ ms \(key in STOPWISE_TEST_KEY: set\); on the green sample: acceptanceCovered 0\.20, noOpenQuestions 0\.95, not done/);
    expect(run.stdout).toMatch(/ {2}green {4}block {4}\{"decision":"block","reason":".*acceptanceCovered.*Task: Reject expired tokens/);
  });
});

describe('stopwise doctor: an OpenAI-compatible decision model', () => {
  it('reports it ok after one evaluation, one chat request per question, with no key needed', async () => {
    const server = await decisionModel({ status: 200, text: chatBody(0.9) });
    const config = { task: 'Reject expired tokens', tests: SH_TESTS, judge: { client: 'openai-compatible', baseURL: server.baseURL, model: 'judge-7b', timeoutMs: 2_000 } };
    const run = await doctor(scratch({ config }), ['--json']);
    expect(run.code, run.stdout).toBe(0);
    expect(server.requests.map((request) => request.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
    const report = json(run);
    expect(report.checks.decisionModel).toMatchObject({ status: 'ok', client: 'openai-compatible', model: 'judge-7b', apiKeyEnv: 'OPENAI_API_KEY', apiKeySet: false, evaluations: 1, modelSaysDone: true });
    expect(report.checks.samples.hosts[0]?.green).toEqual({ kind: 'allow', stdout: '' });
  });
});

describe('stopwise doctor: usage', () => {
  it('exits 2 for an unknown host, an extra argument or an unknown option, and 0 for --help', async () => {
    const dir = scratch();
    for (const args of [['vscode'], ['codex', 'cursor'], ['--verbose']]) {
      const run = await doctor(dir, args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/^stopwise doctor: /);
    }
    const help = await doctor(dir, ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: stopwise doctor \[claude-code\|codex\|cursor\|copilot\|gemini\] \[--json\]/);
    const usage = await runCli(['--help']);
    expect(usage.stdout).toMatch(/\n {2}doctor +try the stop hook setup/);
  });

  it('reads the settings of the project that holds the configuration, from a subfolder', async () => {
    const dir = scratch();
    mkdirSync(join(dir, 'src/deep'), { recursive: true });
    const run = await doctor(join(dir, 'src/deep'));
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toContain('ok       stopwise.config.json is valid (in ../..)\n');
    expect(readFileSync(join(dir, '.claude/settings.json'), 'utf8')).toContain('stopwise hook claude-code');
  });
});
