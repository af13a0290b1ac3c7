import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../src/cli/doctor-report.js';
import { HOSTS, type HookHost } from '../../src/hosts/host.js';
import { launcherPath, launcherScript } from '../../src/hosts/hook-command.js';
import { installHooks } from '../../src/hosts/settings-file.js';
import { chatBody } from '../decision-model/loopback-server.js';
import { startLoopbackDecisionModel, systemOneAnswer, type LoopbackReply } from '../hosts/loopback-decision-model.js';
import { HOOK_FREE_ENV, runCli, type CliRun } from './run-cli.js';

const KEY = 'sk-doctor-secret-7f3a9c';
const GREEN_TAP = "printf 'TAP version 13\\n1..2\\nok 1 - login works\\nok 2 - auth > rejects expired token\\n'";
const NODE_TESTS = { command: 'node', args: ['--test', '--test-reporter=tap'] };
const SH_TESTS = { command: 'sh run-tests.sh' };
const DEADLINE = "the hook's deadline (320 s: tests.timeoutMs + 2 × decisionModel.timeoutMs + 20 s)";

interface Scratch {
  readonly config?: Record<string, unknown> | string;
  /** The host settings file (beside the host's launcher): what `init` writes with this timeout (330 s by default), its parsed value, or raw text. */
  readonly settings?: { host: HookHost; timeout?: number; tools?: 'matched' | 'none' } | { host: HookHost; value: unknown } | { host: HookHost; text: string };
  readonly script?: string;
}

const folders: string[] = [];
let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-doctor-'));
  folders.push(dir);
  return dir;
}

/** A project folder with a real node:test suite, a shell test script (what it runs by default: quicker), and the files asked for. */
function scratch(options: Scratch = {}): string {
  const dir = folder();
  mkdirSync(join(dir, 'test'));
  writeFileSync(
    join(dir, 'test/math.test.mjs'),
    "import test from 'node:test';\nimport assert from 'node:assert/strict';\ntest('adds', () => assert.equal(1 + 1, 2));\ntest('subtracts', () => assert.equal(3 - 1, 2));\n",
  );
  writeFileSync(join(dir, 'run-tests.sh'), `${options.script ?? GREEN_TAP}\n`);
  const config = options.config ?? { tests: SH_TESTS, decisionModel: { client: 'none' } };
  writeFileSync(join(dir, 'stopwise.config.json'), typeof config === 'string' ? config : JSON.stringify(config));
  const settings = options.settings ?? { host: 'claude-code' };
  const path = join(dir, HOSTS[settings.host].settingsFile);
  mkdirSync(dirname(path), { recursive: true });
  if ('text' in settings) writeFileSync(path, settings.text);
  else if ('value' in settings) writeFileSync(path, JSON.stringify(settings.value));
  else {
    const installed = installHooks(HOSTS[settings.host], undefined, { timeoutSeconds: settings.timeout ?? 330, tools: settings.tools ?? 'matched' });
    if (!installed.ok) throw new Error(installed.message);
    writeFileSync(path, JSON.stringify(installed.value));
  }
  writeFileSync(join(dir, launcherPath(HOSTS[settings.host])), launcherScript(HOSTS[settings.host]));
  return dir;
}

function doctor(dir: string, args: readonly string[] = [], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return runCli(['doctor', ...args], { cwd: dir, env: { ...HOOK_FREE_ENV, ...env }, timeoutMs: 60_000 });
}

const report = (run: CliRun) => JSON.parse(run.stdout) as DoctorReport;

/** The lines listed under "N problems:" at the end of the report for a person. */
function problemLines(run: CliRun): string[] {
  const lines = run.stdout.trimEnd().split('\n');
  const start = lines.findIndex((line) => /^\d+ problems?:$/.test(line));
  return start === -1 ? [] : lines.slice(start + 1).map((line) => line.replace(/^ {2}- /, ''));
}

/** Every file under `dir` with its size and modification time. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const info = statSync(join(dir, name));
    if (info.isFile()) files[name] = `${info.size}:${info.mtimeMs}`;
  }
  return files;
}

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
    decisionModel: { client: 'system-one', baseURL, model: 'system-one', apiKeyEnv: 'STOPWISE_TEST_KEY', timeoutMs: 2_000 },
  };
}

describe('stopwise doctor: a sound setup', { timeout: 60_000 }, () => {
  it('exits 0 with every check ok, the evidence of a real node:test run, the sample answers, and writes nothing', async () => {
    const dir = scratch({ config: { tests: NODE_TESTS, decisionModel: { client: 'none' } } });
    const before = snapshot(dir);
    const run = await doctor(dir);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('ok       stopwise.config.json is valid\n');
    expect(run.stdout).toContain(`ok       .claude/settings.json: stop hook registered, timeout 330 s, above ${DEADLINE}\n`);
    expect(run.stdout).toContain('ok       .claude/settings.json: tool guard registered on PreToolUse (Bash|Edit|MultiEdit|Write|NotebookEdit|mcp__.*), PostToolUse');
    expect(run.stdout).toMatch(/ok {7}tests: `node --test --test-reporter=tap` took \d+\.\d s: 2 ran, 0 failed, 0 skipped \(read: tap from stdout\)/);
    expect(run.stdout).toContain('ok       decision model: none (decisionModel.client "none"); a stop with passing tests is allowed on the test evidence alone');
    expect(run.stdout).toContain('sample answers (claude-code, the first stop of a session)');
    expect(run.stdout).toMatch(/ {2}red {6}block {4}\{"decision":"block","reason":"1 test failed: sample > rejects expired tokens\./);
    expect(run.stdout).toContain('  green    allow    (no output: the stop goes ahead)');
    expect(run.stdout).toMatch(/ {2}no tests block {4}\{"decision":"block","reason":"No tests ran/);
    expect(run.stdout.trimEnd().endsWith('the setup is sound')).toBe(true);
    expect(snapshot(dir)).toEqual(before);
  });

  it('prints the same report as JSON with --json', async () => {
    const run = await doctor(scratch({ config: { tests: NODE_TESTS, decisionModel: { client: 'none' } } }), ['--json']);
    expect(run.code).toBe(0);
    const json = report(run);
    expect(json).toMatchObject({ ok: true, problems: [], warnings: [] });
    expect(json.checks.config.status).toBe('ok');
    expect(json.checks.hosts).toMatchObject({ status: 'ok', hosts: [{ host: 'claude-code', file: '.claude/settings.json', registered: true, timeoutSeconds: 330, deadlineSeconds: 320 }] });
    expect(json.checks.tests).toMatchObject({ status: 'ok', command: 'node --test --test-reporter=tap', reader: 'tap', source: 'stdout', ran: 2, failed: 0, skipped: 0, failing: [], durationMs: expect.any(Number) });
    expect(json.checks.decisionModel).toMatchObject({ status: 'ok', client: 'none', evaluations: 0 });
    const [samples] = json.checks.samples.hosts;
    expect(samples?.host).toBe('claude-code');
    expect(samples?.red.kind).toBe('block');
    expect(JSON.parse(samples?.red.stdout ?? '')).toMatchObject({ decision: 'block', reason: expect.stringContaining('sample > rejects expired tokens') });
    expect(samples?.green).toEqual({ kind: 'allow', stdout: '' });
    expect(samples?.noTests.kind).toBe('block');
  });

  it('shows the failing tests of a red run read from a JUnit report, which is evidence, not a setup problem', async () => {
    const dir = scratch({ config: { tests: { command: 'node', args: ['--test', '--test-reporter=junit', '--test-reporter-destination=junit.xml'], report: { format: 'junit', path: 'junit.xml' } } } });
    writeFileSync(join(dir, 'test/auth.test.mjs'), "import test from 'node:test';\nimport assert from 'node:assert/strict';\ntest('rejects expired tokens', () => assert.equal(200, 401));\ntest.skip('refreshes', () => {});\n");
    const run = await doctor(dir, ['--json']);
    expect(run.code, run.stdout).toBe(0);
    const json = report(run);
    expect(json.checks.tests).toMatchObject({ status: 'ok', reader: 'junit', source: 'junit.xml', ran: 3, failed: 1, skipped: 1, failing: ['rejects expired tokens'] });
    expect(json.checks.tests.lines[0]?.text).toMatch(/3 ran, 1 failed, 1 skipped \(read: junit from junit\.xml\); failing: rejects expired tokens$/);
  });

  it('shows warnings without making them problems: exit-code evidence, a Cursor hook with no timeout in a form init no longer writes, no tool hooks', async () => {
    const dir = scratch({
      config: { tests: { ...SH_TESTS, report: { format: 'exit-code' } } },
      settings: { host: 'cursor', value: { version: 1, hooks: { stop: [{ command: 'npx stopwise hook cursor', loop_limit: 5 }] } } },
    });
    const run = await doctor(dir);
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/warning {2}tests: the evidence is the exit code alone/);
    expect(run.stdout).toContain('warning  .cursor/hooks.json: stop hook registered with no timeout, and Cursor documents no default: set "timeout": 330 on the stopwise entry');
    expect(run.stdout).toContain('ok       .cursor/hooks.json: no stopwise tool hooks (optional): loops inside a turn are not guarded; `stopwise init cursor` adds them');
    expect(run.stdout).toContain('sample answers (cursor, the first stop of a session)');
    expect(run.stdout).toContain('warning  .cursor/hooks.json: the stop hook runs an older form of the stopwise command (a missing launcher would block the agent, or npx may download stopwise); `stopwise init cursor` replaces it');
    expect(run.stdout).toContain('the setup is sound (3 warnings)');
  });

  it("accepts a Claude Code hook with no timeout when the host's default (600 s) is above the deadline", async () => {
    const dir = scratch({ settings: { host: 'claude-code', value: { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'npx stopwise hook claude-code' }] }] } } } });
    const run = await doctor(dir, ['claude-code']);
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toContain(`ok       .claude/settings.json: stop hook registered with no timeout: Claude Code's default of 600 s applies, above ${DEADLINE}`);
  });

  it('checks every host whose settings file is there when none is named, and previews each one', async () => {
    const dir = scratch({ settings: { host: 'gemini' } });
    const installed = installHooks(HOSTS.copilot, undefined, { timeoutSeconds: 330, tools: 'matched' });
    mkdirSync(join(dir, '.github/hooks'), { recursive: true });
    writeFileSync(join(dir, '.github/hooks/stopwise.json'), JSON.stringify(installed.ok && installed.value));
    writeFileSync(join(dir, launcherPath(HOSTS.copilot)), launcherScript(HOSTS.copilot));
    const json = report(await doctor(dir, ['--json']));
    expect(json.ok).toBe(true);
    expect(json.checks.hosts.hosts.map((entry) => entry.host)).toEqual(['copilot', 'gemini']);
    expect(json.checks.samples.hosts.map((entry) => [entry.host, entry.red.kind])).toEqual([
      ['copilot', 'block'],
      ['gemini', 'block'],
    ]);
  });

  it('reads the settings of the project that holds the configuration, from a subfolder', async () => {
    const dir = scratch();
    mkdirSync(join(dir, 'src/deep'), { recursive: true });
    const run = await doctor(join(dir, 'src/deep'));
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toContain('ok       stopwise.config.json is valid (in ../..)\n');
  });
});

describe('stopwise doctor: each problem exits 1 with its line', { timeout: 60_000 }, () => {
  it('names every mistake of the configuration and the nearest known key, in the text and in --json, and runs nothing', async () => {
    const dir = scratch({ config: { tests: { comand: 'npm test' }, maxConsecutiveBlock: 2 } });
    const run = await doctor(dir);
    expect(run.code).toBe(1);
    const problems = problemLines(run);
    expect(problems).toEqual([
      'stopwise.config.json: tests.command: required (a string)',
      'stopwise.config.json: tests.comand: unknown field (did you mean "command"?)',
      'stopwise.config.json: maxConsecutiveBlock: unknown field (did you mean "maxConsecutiveBlocks"?)',
    ]);
    expect(run.stdout).toContain('skipped  the tests were not run: they need a valid configuration');
    expect(run.stdout).toContain(
      `ok       .claude/settings.json: stop hook registered, timeout 330 s, above ${DEADLINE.replace(/\)$/, '; the default timeouts, as there is no valid configuration)')}`,
    );
    const json = report(await doctor(dir, ['--json']));
    expect(json.ok).toBe(false);
    expect(json.problems).toEqual(problems);
  });

  it('reports a missing configuration and a missing settings file', async () => {
    const dir = folder();
    const run = await doctor(dir, ['codex']);
    expect(run.code).toBe(1);
    expect(problemLines(run)).toEqual([
      `no stopwise.config.json in ${dir} or any parent folder; \`stopwise init <host>\` writes one`,
      '.codex/hooks.json: not found; `stopwise init codex` writes it',
    ]);
  });

  it('reports the settings file of the host named, and no host at all when none is named and none is there', async () => {
    const named = await doctor(scratch({ settings: { host: 'codex' } }), ['claude-code']);
    expect(named.code).toBe(1);
    expect(problemLines(named)).toEqual(['.claude/settings.json: not found; `stopwise init claude-code` writes it']);
    const bare = folder();
    writeFileSync(join(bare, 'stopwise.config.json'), JSON.stringify({ tests: SH_TESTS }));
    writeFileSync(join(bare, 'run-tests.sh'), `${GREEN_TAP}\n`);
    const none = await doctor(bare);
    expect(none.code).toBe(1);
    expect(problemLines(none)).toEqual([
      'no host is registered: none of .claude/settings.json, .codex/hooks.json, .cursor/hooks.json, .github/hooks/stopwise.json, .gemini/settings.json is in the project; `stopwise init <host>` sets one up',
    ]);
  });

  it('reports a settings file that cannot be read or has the wrong shape as a problem line, not a crash', async () => {
    const run = await doctor(scratch({ settings: { host: 'claude-code', text: '{ "hooks": ' } }));
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
    expect(problemLines(run)).toEqual([expect.stringMatching(/^\.claude\/settings\.json: not valid JSON at line 1, column \d+: unexpected end of JSON input$/)]);
    const shape = await doctor(scratch({ settings: { host: 'codex', value: { hooks: { Stop: { command: 'x' } } } } }));
    expect(problemLines(shape)).toEqual(['.codex/hooks.json: "hooks.Stop" must be an array, got an object']);
    const version = await doctor(scratch({ settings: { host: 'copilot', value: { version: 2, hooks: {} } } }));
    expect(problemLines(version)).toEqual(['.github/hooks/stopwise.json: "version" must be 1 (the hooks format the host reads), got 2']);
  });

  it('reports a settings file without the stopwise stop hook', async () => {
    const run = await doctor(scratch({ settings: { host: 'claude-code', value: { hooks: { Stop: [{ hooks: [{ type: 'command', command: './notify.sh' }] }] } } } }));
    expect(run.code).toBe(1);
    expect(problemLines(run)).toEqual(['.claude/settings.json: no stopwise stop hook (`stopwise hook claude-code` under hooks.Stop); `stopwise init claude-code` adds it']);
  });

  it('reports a launcher the settings run that is not there', async () => {
    const dir = scratch();
    rmSync(join(dir, '.claude/stopwise.sh'));
    const run = await doctor(dir);
    expect(run.code, run.stdout).toBe(1);
    expect(problemLines(run)).toEqual(['.claude/stopwise.sh: not found, and .claude/settings.json runs it: the stopwise hooks do nothing; `stopwise init claude-code` writes it']);
  });

  it("reports a timeout that is not above the hook's deadline, with the timeout to set in the host's unit", async () => {
    const run = await doctor(scratch({ config: { tests: { ...SH_TESTS, timeoutMs: 60_000 } }, settings: { host: 'codex', timeout: 60 } }));
    expect(run.code).toBe(1);
    expect(problemLines(run)).toEqual([
      ".codex/hooks.json: the stop hook's timeout (60 s) is not above the hook's deadline (140 s: tests.timeoutMs + 2 × decisionModel.timeoutMs + 20 s): Codex would kill the hook before it answers; set \"timeout\": 150 on the stopwise entry",
    ]);
    const gemini = await doctor(scratch({ settings: { host: 'gemini', value: { hooks: { AfterAgent: [{ hooks: [{ type: 'command', command: 'npx stopwise hook gemini', timeout: 330 }] }] } } } }));
    expect(problemLines(gemini)).toEqual([expect.stringMatching(/^\.gemini\/settings\.json: the stop hook's timeout \(0\.33 s\) is not above .*; set "timeout": 330000 on the stopwise entry$/)]);
  });

  it('reports a test command that cannot start, in a shell or not', async () => {
    const direct = await doctor(scratch({ config: { tests: { command: 'stopwise-no-such-test-runner', args: ['run'] } } }));
    expect(direct.code).toBe(1);
    expect(problemLines(direct)).toEqual([expect.stringMatching(/^tests: `stopwise-no-such-test-runner run` could not start \(.*ENOENT.*\); fix tests\.command$/)]);
    const shell = await doctor(scratch({ config: { tests: { command: 'stopwise-no-such-test-runner --all' } } }));
    expect(problemLines(shell)).toEqual([expect.stringMatching(/^tests: `stopwise-no-such-test-runner --all` could not start \(exit code 127: the shell found no such command.*\); fix tests\.command$/)]);
  });

  it('reports a run in which no test ran, and a JUnit report the command does not write', async () => {
    const run = await doctor(scratch({ config: { tests: SH_TESTS }, script: 'echo nothing to test here' }));
    expect(run.code).toBe(1);
    expect(problemLines(run)).toEqual([expect.stringMatching(/^tests: `sh run-tests\.sh` ran no test in \d+\.\d s \(read: tap from stdout\): the output holds no tap test result$/)]);
    const junit = await doctor(scratch({ config: { tests: { ...SH_TESTS, report: { format: 'junit', path: 'junit.xml' } } } }));
    expect(problemLines(junit)).toEqual([expect.stringMatching(/^tests: `sh run-tests\.sh` ran no test .*\(read: junit from junit\.xml\): .*junit\.xml/)]);
  });

  it('reports a decision model that refuses the key (401) after one request, the key never printed', async () => {
    const server = await decisionModel({ status: 401, json: { detail: `invalid API key ${KEY}` } });
    const run = await doctor(scratch({ config: judged(server.baseURL) }), [], { STOPWISE_TEST_KEY: KEY });
    expect(run.code).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(run.stdout + run.stderr).not.toContain(KEY);
    expect(run.stdout).toContain('invalid API key [redacted]');
    const [problem, ...rest] = problemLines(run);
    expect(rest).toEqual([]);
    expect(problem).toMatch(new RegExp(`^decision model: system-one system-one at ${server.baseURL.replace(/[./]/g, '\\$&')} \\(key in STOPWISE_TEST_KEY: set\\) could not be asked: auth: `));
    // the green sample, with the model down as it was: a hand-off that says why
    expect(run.stdout).toMatch(/ {2}green {4}handoff {2}\{"systemMessage":"stopwise: the agent was let stop without the checks met: .*by rule decision_model_unavailable.*\\nstopwise: the decision model could not be asked/);
    const json = report(await doctor(scratch({ config: judged(server.baseURL) }), ['--json'], { STOPWISE_TEST_KEY: KEY }));
    expect(json.checks.decisionModel).toMatchObject({ status: 'problem', client: 'system-one', apiKeyEnv: 'STOPWISE_TEST_KEY', apiKeySet: true, evaluations: 1, errorKind: 'auth' });
    expect(JSON.stringify(json)).not.toContain(KEY);
  });

  it('reports a decision model on a closed port as a network error', async () => {
    const server = await decisionModel({ status: 200, json: {} });
    const baseURL = server.baseURL;
    await server.close();
    closeServer = undefined;
    const run = await doctor(scratch({ config: judged(baseURL) }), ['--json'], { STOPWISE_TEST_KEY: KEY });
    expect(run.code).toBe(1);
    const json = report(run);
    expect(json.checks.decisionModel).toMatchObject({ status: 'problem', errorKind: 'network' });
    expect(json.problems).toEqual([expect.stringMatching(/^decision model: system-one .* could not be asked: network: /)]);
  });

  it('reports a decision model whose key is not set, naming the variable, without a request', async () => {
    const server = await decisionModel(systemOneAnswer({ acceptanceCovered: 0.9, noOpenQuestions: 0.9 }));
    const run = await doctor(scratch({ config: judged(server.baseURL) }));
    expect(run.code).toBe(1);
    expect(server.requests).toHaveLength(0);
    expect(problemLines(run)).toEqual([expect.stringMatching(/^decision model \(system-one, key in STOPWISE_TEST_KEY: not set\): .*STOPWISE_TEST_KEY in the environment, named by decisionModel\.apiKeyEnv/)]);
  });
});

describe('stopwise doctor: a reachable decision model', { timeout: 60_000 }, () => {
  it('reports a System One model ok after exactly one request, and uses its answer for the green sample', async () => {
    const server = await decisionModel(systemOneAnswer({ acceptanceCovered: 0.2, noOpenQuestions: 0.95 }));
    const run = await doctor(scratch({ config: judged(server.baseURL) }), [], { STOPWISE_TEST_KEY: KEY });
    expect(run.code, run.stdout).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v1/systemone', headers: { authorization: `Bearer ${KEY}` } });
    expect(server.requests[0]?.body).toMatchObject({ state: { task: 'Reject expired tokens', tests: expect.anything() } });
    expect(run.stdout).not.toContain(KEY);
    expect(run.stdout).toMatch(/ok {7}decision model: system-one system-one at http:\/\/127\.0\.0\.1:\d+\/v1 answered in \d+ ms \(key in STOPWISE_TEST_KEY: set\); on the green sample: acceptanceCovered 0\.20, noOpenQuestions 0\.95, not done/);
    expect(run.stdout).toMatch(/ {2}green {4}block {4}\{"decision":"block","reason":".*acceptanceCovered.*Task: Reject expired tokens/);
  });

  it('reports an OpenAI-compatible model ok after one evaluation, a chat request per question, with no key needed', async () => {
    const server = await decisionModel({ status: 200, text: chatBody(0.9) });
    const config = { task: 'Reject expired tokens', tests: SH_TESTS, decisionModel: { client: 'openai-compatible', baseURL: server.baseURL, model: 'judge-7b', timeoutMs: 2_000 } };
    const run = await doctor(scratch({ config }), ['--json']);
    expect(run.code, run.stdout).toBe(0);
    expect(server.requests.map((request) => request.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
    const json = report(run);
    expect(json.checks.decisionModel).toMatchObject({ status: 'ok', client: 'openai-compatible', model: 'judge-7b', apiKeyEnv: 'OPENAI_API_KEY', apiKeySet: false, evaluations: 1, modelSaysDone: true });
    expect(json.checks.samples.hosts[0]?.green).toEqual({ kind: 'allow', stdout: '' });
  });
});

describe('stopwise doctor: usage', { timeout: 60_000 }, () => {
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
    expect(readFileSync(join(dir, '.claude/settings.json'), 'utf8')).toContain('.claude/stopwise.sh');
  });
});
