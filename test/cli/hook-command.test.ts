import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { HUMAN_REVIEW_NOTE } from '../../src/hosts/decide-stop-hook.js';
import type { HookHost } from '../../src/hosts/hook-host.js';
import { hostOutputProblems } from '../hosts/host-output-schemas.js';
import { isRunning } from '../hosts/is-running.js';
import { startLoopbackDecisionModel, systemOneAnswer, type LoopbackReply, type ReceivedRequest } from '../hosts/loopback-decision-model.js';
import { HOOK_FREE_ENV, runCli, type CliRun } from './run-cli.js';

const ENV = HOOK_FREE_ENV;

const RED = "printf 'TAP version 13\\n1..3\\nok 1 - login works\\nnot ok 2 - auth > rejects expired token\\nnot ok 3 - auth > refreshes\\n'; exit 1";
const GREEN = "printf 'TAP version 13\\n1..2\\nok 1 - login works\\nok 2 - auth > rejects expired token\\n'";
const NONE = 'echo nothing to see';

/** A project folder with a configuration whose test command is `sh run-tests.sh`. */
function project(config: Record<string, unknown> = {}, tests = RED): string {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-hook-'));
  writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'sh run-tests.sh' }, ...config }));
  setTests(dir, tests);
  return dir;
}

function setTests(dir: string, script: string): void {
  writeFileSync(join(dir, 'run-tests.sh'), `${script}\n`);
}

function stopInput(dir: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    session_id: 'session-1',
    transcript_path: join(dir, 'transcript.jsonl'),
    cwd: dir,
    permission_mode: 'default',
    hook_event_name: 'Stop',
    stop_hook_active: false,
    last_assistant_message: 'I fixed the token check.',
    ...extra,
  };
}

function hook(host: HookHost, dir: string, input: unknown, env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return runCli(['hook', host], { cwd: dir, input: typeof input === 'string' ? input : JSON.stringify(input), env: { ...ENV, ...env }, timeoutMs: 60_000 });
}

/** The parsed answer, checked against the host's schema. */
function answer(host: HookHost, run: CliRun): Record<string, unknown> | undefined {
  expect(run.code, run.stderr).toBe(0);
  if (run.stdout === '') return undefined;
  const output = JSON.parse(run.stdout) as Record<string, unknown>;
  expect(hostOutputProblems(host, output)).toEqual([]);
  return output;
}

function stateFiles(dir: string): string[] {
  const stateDir = join(dir, '.stopwise/state');
  return existsSync(stateDir) ? readdirSync(stateDir).filter((name) => name.endsWith('.json')) : [];
}

function onlyState(dir: string): Record<string, unknown> {
  const [file] = stateFiles(dir);
  expect(file).toBeDefined();
  return JSON.parse(readFileSync(join(dir, '.stopwise/state', file as string), 'utf8')) as Record<string, unknown>;
}

let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
});

async function decisionModel(reply: (index: number, request: ReceivedRequest) => LoopbackReply) {
  const server = await startLoopbackDecisionModel((request, index) => reply(index, request));
  closeServer = server.close;
  return {
    server,
    // an answer is never cut by the request timeout, however busy the machine: the tests that mean a timeout set a short one
    judge: { client: 'system-one', baseURL: server.baseURL, model: 'system-one', apiKeyEnv: 'STOPWISE_TEST_KEY', timeoutMs: 120_000 },
    env: { STOPWISE_TEST_KEY: 'test-key-123' },
  };
}

describe('stopwise hook claude-code: whole sessions', () => {
  it('blocks red tests naming them, then hands off when they are still red on the re-entry', async () => {
    const dir = project();
    const first = answer('claude-code', await hook('claude-code', dir, stopInput(dir)));
    expect(first).toEqual({
      decision: 'block',
      reason: '2 tests failed: auth > rejects expired token; auth > refreshes. Fix them and run the tests again before you stop.',
    });
    const second = await hook('claude-code', dir, stopInput(dir, { stop_hook_active: true }));
    const handoff = answer('claude-code', second);
    expect(Object.keys(handoff ?? {})).toEqual(['systemMessage']);
    expect(handoff?.systemMessage).toMatch(/^stopwise: the tests still fail .*auth > refreshes.*A person should look\.$/);
    expect(second.stderr).toContain(handoff?.systemMessage as string);
    expect(onlyState(dir)).toMatchObject({ step: 0, consecutiveBlocks: 0, totals: { attempts: 2, blocks: 1, handoffs: 1 } });
    const third = answer('claude-code', await hook('claude-code', dir, stopInput(dir)));
    expect(third).toMatchObject({ decision: 'block' });
  });

  it('lets a green run stop silently when the decision model says done, asking it with the turn', async () => {
    const model = await decisionModel(() => systemOneAnswer({ acceptanceCovered: 0.94, noOpenQuestions: 0.9 }));
    const dir = project({ task: 'Reject expired tokens', acceptance: ['expired tokens get a 401'], judge: model.judge }, GREEN);
    const run = await hook('claude-code', dir, stopInput(dir), model.env);
    expect(answer('claude-code', run)).toBeUndefined();
    expect(run.stderr).toBe('');
    expect(model.server.requests).toHaveLength(1);
    expect(model.server.requests[0]?.headers.authorization).toBe('Bearer test-key-123');
    expect(model.server.requests[0]?.body).toMatchObject({
      state: {
        task: 'Reject expired tokens',
        acceptance: ['expired tokens get a 401'],
        output: 'I fixed the token check.',
        tests: { passed: true, ran: 2, failed: [] },
      },
    });
  });

  it('blocks a green run in the mid band quoting the probabilities, then allows the re-entry without asking again', async () => {
    const model = await decisionModel(() => systemOneAnswer({ acceptanceCovered: 0.55, noOpenQuestions: 0.92 }));
    const dir = project({ task: 'Reject expired tokens', acceptance: ['expired tokens get a 401', 'the error names the token'], judge: model.judge }, GREEN);
    const first = answer('claude-code', await hook('claude-code', dir, stopInput(dir), model.env));
    expect(Object.keys(first ?? {})).toEqual(['decision', 'reason']);
    expect(first?.reason).toContain('acceptanceCovered = 0.55, noOpenQuestions = 0.92 (below 0.7: acceptanceCovered)');
    expect(first?.reason).toMatch(
      /then stop\.\n\nTask: Reject expired tokens\nAcceptance criteria:\n- expired tokens get a 401\n- the error names the token$/,
    );
    const second = await hook('claude-code', dir, stopInput(dir, { stop_hook_active: true }), model.env);
    expect(answer('claude-code', second)).toBeUndefined();
    expect(model.server.requests).toHaveLength(1);
  });

  it('hands off with the human review note when the tests fail while the model says done', async () => {
    const model = await decisionModel(() => systemOneAnswer({ acceptanceCovered: 0.97, noOpenQuestions: 0.95 }));
    const dir = project({ task: 'Reject expired tokens', judge: model.judge }, RED);
    const run = await hook('claude-code', dir, stopInput(dir), model.env);
    const output = answer('claude-code', run);
    expect(output?.systemMessage).toContain(HUMAN_REVIEW_NOTE);
    expect(output?.systemMessage).toContain('auth > rejects expired token');
    expect(run.stderr).toContain(HUMAN_REVIEW_NOTE);
  });

  it('asks the model on the first red stop, and never on the red re-entry that hands off', async () => {
    const model = await decisionModel(() => systemOneAnswer({ acceptanceCovered: 0.3, noOpenQuestions: 0.9 }));
    const dir = project({ task: 'Reject expired tokens', judge: model.judge }, RED);
    expect(answer('claude-code', await hook('claude-code', dir, stopInput(dir), model.env))?.decision).toBe('block');
    expect(model.server.requests).toHaveLength(1);
    const reentry = answer('claude-code', await hook('claude-code', dir, stopInput(dir, { stop_hook_active: true }), model.env));
    expect(reentry?.systemMessage).toMatch(/^stopwise: the tests still fail/);
    expect(model.server.requests).toHaveLength(1);
  });

  it('reads the exit code alone when the configuration says so: green allows, red blocks naming the command', async () => {
    const dir = project({ tests: { command: 'sh run-tests.sh', report: { format: 'exit-code' } } }, 'echo all good');
    const green = await hook('claude-code', dir, stopInput(dir));
    expect(answer('claude-code', green)).toBeUndefined();
    expect(green.stderr).toBe('');
    setTests(dir, "echo 'expected 3 to equal 4' >&2; exit 1");
    const red = answer('claude-code', await hook('claude-code', dir, stopInput(dir, { session_id: 'red' })));
    expect(red).toEqual({
      decision: 'block',
      reason: '1 test failed: check:sh run-tests.sh. Fix it and run the tests again before you stop.\n- check:sh run-tests.sh: exit code 1: expected 3 to equal 4',
    });
  });

  it('blocks once when no tests ran, then hands off', async () => {
    const dir = project({}, NONE);
    const first = answer('claude-code', await hook('claude-code', dir, stopInput(dir)));
    expect(first?.decision).toBe('block');
    expect(first?.reason).toMatch(/^No tests ran, run the suite/);
    const second = answer('claude-code', await hook('claude-code', dir, stopInput(dir, { stop_hook_active: true })));
    expect(second?.systemMessage).toMatch(/still no tests ran/);
  });

  it('does not block endlessly when stop_hook_active stays false: its own count decides', async () => {
    const dir = project();
    const kinds: string[] = [];
    for (let i = 0; i < 6; i++) {
      const output = answer('claude-code', await hook('claude-code', dir, stopInput(dir, { last_assistant_message: `attempt ${i}` })));
      kinds.push(output?.decision === 'block' ? 'block' : 'handoff');
    }
    expect(kinds).toEqual(['block', 'handoff', 'block', 'handoff', 'block', 'handoff']);
  });

  it('reaches the step cap across separate invocations', async () => {
    const dir = project({ maxConsecutiveBlocks: 10, policy: { maxSteps: 3 } });
    const outputs = [];
    for (let i = 0; i < 3; i++) {
      outputs.push(answer('claude-code', await hook('claude-code', dir, stopInput(dir, { stop_hook_active: i > 0, last_assistant_message: `try ${i}` }))));
    }
    expect(outputs.map((output) => output?.decision ?? 'handoff')).toEqual(['block', 'block', 'handoff']);
    expect(outputs[2]?.systemMessage).toMatch(/step cap \(3 stop attempts in a row, cap 3\)/);
  });

  it('stops with the policy of the calibration file the configuration names, for its task type', async () => {
    const dir = project({ maxConsecutiveBlocks: 10, policy: '.stopwise/policy.json', taskType: 'bugfix' });
    const policy = { doneThreshold: 0.8, midBandLow: 0.4, maxSteps: 2, stallRounds: 3 };
    mkdirSync(join(dir, '.stopwise'));
    writeFileSync(join(dir, '.stopwise/policy.json'), JSON.stringify({ policy: { ...policy, maxSteps: 20 }, calibration: { certified: true }, byTaskType: { bugfix: policy } }));
    const outputs = [];
    for (let i = 0; i < 2; i++) outputs.push(answer('claude-code', await hook('claude-code', dir, stopInput(dir, { last_assistant_message: `try ${i}` }))));
    expect(outputs.map((output) => output?.decision ?? 'handoff')).toEqual(['block', 'handoff']);
    expect(outputs[1]?.systemMessage).toMatch(/step cap \(2 stop attempts in a row, cap 2\)/);
  });

  it('lets the stop go ahead with a message naming the policy file when it certified nothing, or lacks the task type', async () => {
    for (const [config, file, problem] of [
      [{ policy: 'policy.json' }, { policy: null, calibration: { certified: false } }, /policy\.json: "policy" is null: the calibration certified no threshold/],
      [{ policy: 'policy.json', taskType: 'feature' }, { policy: null, byTaskType: { bugfix: { maxSteps: 3 } } }, /policy\.json: no policy for task type "feature" in "byTaskType"; it has bugfix/],
    ] as const) {
      const dir = project(config);
      writeFileSync(join(dir, 'policy.json'), JSON.stringify(file));
      const run = await hook('codex', dir, stopInput(dir));
      const output = answer('codex', run);
      expect(Object.keys(output ?? {})).toEqual(['systemMessage']);
      expect(output?.systemMessage).toMatch(/^stopwise: the configuration is invalid \(.*stopwise\.config\.json: policy: /);
      expect(output?.systemMessage).toMatch(problem);
      expect(output?.systemMessage).toMatch(/the stop was allowed unchecked/);
    }
  });

  it('detects a stall across separate invocations', async () => {
    const dir = project({ maxConsecutiveBlocks: 10 });
    const outputs = [];
    for (let i = 0; i < 3; i++) outputs.push(answer('claude-code', await hook('claude-code', dir, stopInput(dir, { stop_hook_active: i > 0 }))));
    expect(outputs.map((output) => output?.decision ?? 'handoff')).toEqual(['block', 'block', 'handoff']);
    expect(outputs[2]?.systemMessage).toMatch(/last 3 stop attempts were identical/);
  });

  it('keeps SubagentStop counts apart per agent', async () => {
    const dir = project();
    const subagent = (id: string, active: boolean) =>
      stopInput(dir, { hook_event_name: 'SubagentStop', agent_id: id, agent_type: 'general-purpose', agent_transcript_path: join(dir, `${id}.jsonl`), stop_hook_active: active });
    expect(answer('claude-code', await hook('claude-code', dir, subagent('agent-a', false)))?.decision).toBe('block');
    expect(answer('claude-code', await hook('claude-code', dir, subagent('agent-b', false)))?.decision).toBe('block');
    expect(answer('claude-code', await hook('claude-code', dir, subagent('agent-a', false)))?.systemMessage).toMatch(/still fail/);
    expect(stateFiles(dir)).toHaveLength(2);
  });

  it('reuses a fresh pass and runs the tests again once the tree changed', async () => {
    const dir = project({}, GREEN);
    const counter = join(mkdtempSync(join(tmpdir(), 'stopwise-count-')), 'runs');
    setTests(dir, `echo run >> '${counter}'\n${GREEN}`);
    writeFileSync(join(dir, '.gitignore'), '.stopwise/\n');
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', ...args], { cwd: dir, stdio: 'ignore' });
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'start');
    const runs = () => readFileSync(counter, 'utf8').split('\n').filter(Boolean).length;
    expect(answer('claude-code', await hook('claude-code', dir, stopInput(dir)))).toBeUndefined();
    expect(answer('claude-code', await hook('claude-code', dir, stopInput(dir)))).toBeUndefined();
    expect(runs()).toBe(1);
    writeFileSync(join(dir, 'app.js'), 'export const changed = true;\n');
    expect(answer('claude-code', await hook('claude-code', dir, stopInput(dir)))).toBeUndefined();
    expect(runs()).toBe(2);
  });

  it('answers nothing to an event that is not a stop, and keeps no state for it', async () => {
    const dir = project();
    const run = await hook('claude-code', dir, { ...stopInput(dir), hook_event_name: 'PostToolUse' });
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(stateFiles(dir)).toEqual([]);
  });
});

describe('stopwise hook codex and cursor', () => {
  it('answers Codex within its schema through a whole session', async () => {
    let greenAnswers = 0;
    const model = await decisionModel((_index, request) => {
      const passed = (request.body as { state: { tests: { passed: boolean } } }).state.tests.passed;
      if (!passed) return systemOneAnswer({ acceptanceCovered: 0.3, noOpenQuestions: 0.9 });
      greenAnswers++;
      return systemOneAnswer(greenAnswers === 1 ? { acceptanceCovered: 0.5, noOpenQuestions: 0.9 } : { acceptanceCovered: 0.95, noOpenQuestions: 0.9 });
    });
    const dir = project({ task: 'Reject expired tokens', acceptance: ['expired tokens get a 401'], judge: model.judge });
    const codex = (extra: Record<string, unknown>) =>
      stopInput(dir, { turn_id: 'turn-1', model: 'gpt-5-codex', transcript_path: null, last_assistant_message: null, ...extra });
    const red = answer('codex', await hook('codex', dir, codex({}), model.env));
    expect(red).toMatchObject({ decision: 'block' });
    const handoff = answer('codex', await hook('codex', dir, codex({ stop_hook_active: true }), model.env));
    expect(Object.keys(handoff ?? {})).toEqual(['systemMessage']);
    setTests(dir, GREEN);
    const midBand = answer('codex', await hook('codex', dir, codex({}), model.env));
    expect(midBand).toMatchObject({ decision: 'block' });
    expect(midBand?.reason).toContain('Acceptance criteria:\n- expired tokens get a 401');
    expect(JSON.stringify(midBand)).not.toMatch(/hookSpecificOutput|additionalContext/);
    expect(answer('codex', await hook('codex', dir, codex({ stop_hook_active: true }), model.env))).toBeUndefined();
    expect(greenAnswers).toBe(1);
  });

  it('answers Cursor with followup_message, reads loop_count as the re-entry and leaves an aborted stop alone', async () => {
    const dir = project();
    const cursor = (extra: Record<string, unknown>) => ({
      conversation_id: 'conv-1',
      generation_id: 'gen-1',
      hook_event_name: 'stop',
      status: 'completed',
      loop_count: 0,
      workspace_roots: [dir],
      ...extra,
    });
    const run = (input: unknown) => runCli(['hook', 'cursor'], { cwd: tmpdir(), input: JSON.stringify(input), env: ENV, timeoutMs: 60_000 });
    const first = answer('cursor', await run(cursor({})));
    expect(first?.followup_message).toMatch(/^2 tests failed: auth > rejects expired token; auth > refreshes\./);
    const second = await run(cursor({ loop_count: 1 }));
    expect(answer('cursor', second)).toEqual({});
    expect(second.stderr).toMatch(/still fail/);
    setTests(dir, `touch ran-tests\n${RED}`);
    const aborted = await run(cursor({ status: 'aborted' }));
    expect(answer('cursor', aborted)).toEqual({});
    expect(existsSync(join(dir, 'ran-tests'))).toBe(false);
  });
});

describe('stopwise hook: hostile and broken input', () => {
  it('exits 1 with a clear message on malformed JSON, an array, or nothing', async () => {
    const dir = project();
    for (const [input, message] of [
      ['{"session_id": "s", ', /stdin is not valid JSON/],
      ['[{"session_id": "s"}]', /stop hook input must be a JSON object, got an array/],
      ['', /stdin is not valid JSON/],
      ['"Stop"', /must be a JSON object/],
    ] as const) {
      const run = await hook('claude-code', dir, input);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(message);
      expect(run.stderr).toMatch(/the stop goes ahead unchecked/);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('refuses stdin above 16 MiB without a crash, and reads a large but sane message', async () => {
    const dir = project();
    const huge = await hook('claude-code', dir, JSON.stringify({ ...stopInput(dir), last_assistant_message: 'x'.repeat(17 * 1024 * 1024) }));
    expect(huge.code).toBe(1);
    expect(huge.stderr).toMatch(/stdin is larger than 16777216 bytes/);
    const large = await hook('claude-code', dir, stopInput(dir, { last_assistant_message: 'y'.repeat(3 * 1024 * 1024) }));
    expect(answer('claude-code', large)?.decision).toBe('block');
  });

  it('never uses a session id as a path', async () => {
    const dir = project();
    for (const id of ['../../../../evil', '/etc/passwd', 'a/b\\c', '..', '']) {
      expect(answer('claude-code', await hook('claude-code', dir, stopInput(dir, { session_id: id })))?.decision).toBe('block');
    }
    expect(stateFiles(dir)).toHaveLength(5);
    for (const name of stateFiles(dir)) expect(name).toMatch(/^session-[0-9a-f]{32}\.json$/);
    expect(readdirSync(dir).sort()).toEqual(['.stopwise', 'run-tests.sh', 'stopwise.config.json']);
    expect(existsSync(join(dir, '../../../../evil'))).toBe(false);
  });

  it('resets a corrupt state file with a warning and still decides', async () => {
    const dir = project();
    answer('claude-code', await hook('claude-code', dir, stopInput(dir)));
    const [file] = stateFiles(dir);
    writeFileSync(join(dir, '.stopwise/state', file as string), '{"version": 1, "step": "lots"');
    const run = await hook('claude-code', dir, stopInput(dir));
    expect(run.stderr).toMatch(/state file .* was corrupt/);
    expect(answer('claude-code', run)?.decision).toBe('block');
    expect(onlyState(dir)).toMatchObject({ version: 1, consecutiveBlocks: 1, totals: { attempts: 1 } });
  });

  it('keeps an exact count over twenty concurrent invocations on one session', async () => {
    const dir = project({ maxConsecutiveBlocks: 100, policy: { maxSteps: 100, stallRounds: 50 } });
    // Claude Code's own cap (8 blocks) is turned off, as the override allows, so that twenty blocks in a row are possible
    const runs = await Promise.all(Array.from({ length: 20 }, () => hook('claude-code', dir, stopInput(dir), { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '0' })));
    expect(runs.map((run) => answer('claude-code', run)?.decision)).toEqual(Array(20).fill('block'));
    expect(onlyState(dir)).toMatchObject({ step: 20, consecutiveBlocks: 20, totals: { attempts: 20, blocks: 20 } });
    expect(readdirSync(join(dir, '.stopwise/state')).filter((name) => !name.startsWith('.'))).toHaveLength(1);
  }, 120_000);

  it('alternates exactly between block and hand-off under concurrency with the default of one block', async () => {
    const dir = project();
    const runs = await Promise.all(Array.from({ length: 20 }, () => hook('claude-code', dir, stopInput(dir))));
    const blocks = runs.filter((run) => answer('claude-code', run)?.decision === 'block').length;
    expect(blocks).toBe(10);
    expect(onlyState(dir)).toMatchObject({ consecutiveBlocks: 0, totals: { attempts: 20, blocks: 10, handoffs: 10 } });
  }, 120_000);

  it('takes over a lock left by a process that died', async () => {
    const dir = project();
    answer('claude-code', await hook('claude-code', dir, stopInput(dir, { session_id: 'locked' })));
    const [file] = stateFiles(dir);
    const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
    writeFileSync(join(dir, '.stopwise/state', `${file}.lock`), JSON.stringify({ pid: dead, host: hostname(), token: 'crashed' }));
    const run = await hook('claude-code', dir, stopInput(dir, { session_id: 'locked' }));
    expect(answer('claude-code', run)?.systemMessage).toMatch(/still fail/);
  });

  it('still blocks red tests when the decision model hangs, and lets green ones stop with a message', async () => {
    const model = await decisionModel(() => 'hang');
    const judge = { ...model.judge, timeoutMs: 300 };
    const dir = project({ task: 'Reject expired tokens', judge });
    const red = await hook('claude-code', dir, stopInput(dir), model.env);
    expect(answer('claude-code', red)).toMatchObject({ decision: 'block', systemMessage: expect.stringMatching(/no answer from System One .* within 300 ms/) });
    setTests(dir, GREEN);
    const green = answer('claude-code', await hook('claude-code', dir, stopInput(dir, { session_id: 'other' }), model.env));
    expect(Object.keys(green ?? {})).toEqual(['systemMessage']);
    expect(green?.systemMessage).toMatch(/tests pass, but the decision model could not be asked \(no answer from System One .* within 300 ms.*A person should look/);
  });

  it('still blocks red tests when the decision model answers 500, and lets green ones stop with a message', async () => {
    const model = await decisionModel(() => ({ status: 500, json: { error: 'internal' } }));
    const dir = project({ task: 'Reject expired tokens', judge: model.judge });
    expect(answer('codex', await hook('codex', dir, stopInput(dir), model.env))).toMatchObject({ decision: 'block', systemMessage: expect.stringContaining('System One answered 500') });
    setTests(dir, GREEN);
    const green = answer('codex', await hook('codex', dir, stopInput(dir, { session_id: 'other' }), model.env));
    expect(green?.systemMessage).toMatch(/could not be asked \(System One answered 500/);
  });

  it('does not wait for a retry-after longer than one decision-model request may take', async () => {
    const model = await decisionModel(() => ({ status: 429, json: { error: 'slow down' }, headers: { 'retry-after': '20' } }));
    const dir = project({ task: 'Reject expired tokens', judge: { ...model.judge, timeoutMs: 1_000 } }, GREEN);
    const started = Date.now();
    const output = answer('claude-code', await hook('claude-code', dir, stopInput(dir), model.env));
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(output?.systemMessage).toMatch(/could not be asked \(System One answered 429 .*the server asked to wait 20 s, longer than allowed/);
    expect(model.server.requests).toHaveLength(1);
  });

  it('lets green tests stop with a message when the API key variable is not set', async () => {
    const dir = project({ task: 't', judge: { client: 'system-one', baseURL: 'http://127.0.0.1:9/v1', model: 'm', apiKeyEnv: 'STOPWISE_UNSET_KEY' } }, GREEN);
    const output = answer('claude-code', await hook('claude-code', dir, stopInput(dir)));
    expect(output?.systemMessage).toMatch(/could not be asked \(the system-one decision model needs: the key \(STOPWISE_UNSET_KEY in the environment, named by judge.apiKeyEnv\)\)/);
  });

  it('stops a test command that never ends, kills its processes and lets the agent stop with a message', async () => {
    const dir = project({ tests: { command: 'sleep 60 & echo $! > sleeper.pid; wait', timeoutMs: 2_000 } });
    const started = Date.now();
    const run = await hook('claude-code', dir, stopInput(dir));
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(answer('claude-code', run)?.systemMessage).toMatch(/test command did not finish within 2 s \(tests.timeoutMs\) and was stopped.*A person should look/);
    // the group was sent SIGTERM before the hook answered; the sleeper's end is waited for, not given a fixed time
    const sleeper = Number(readFileSync(join(dir, 'sleeper.pid'), 'utf8'));
    while (isRunning(sleeper)) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(onlyState(dir)).toMatchObject({ consecutiveBlocks: 0, totals: { handoffs: 1 } });
  });

  it.each([
    ['a program that does not exist, in a shell', { command: 'nonexistent-test-runner --run' }, /could not start \(exit code 127: the shell found no such command: .*nonexistent-test-runner.*not found\)/],
    ['a program that does not exist, without a shell', { command: 'nonexistent-test-runner', args: ['--run'] }, /could not start \(spawn nonexistent-test-runner ENOENT\)/],
    ['a file that is not executable, in a shell', { command: './run-tests.sh' }, /could not start \(exit code 126: the shell could not execute it: .*Permission denied\)/],
    ['a file that is not executable, without a shell', { command: './run-tests.sh', args: [] }, /could not start \(spawn \.\/run-tests\.sh EACCES\)/],
    ['an npm script that does not exist', { command: 'npm', args: ['run', 'no-such-script', '--silent'] }, /could not start \(npm has no "no-such-script" script\)/],
  ])('lets the agent stop with a message naming the command and the error for %s', async (_what, tests: { command: string; args?: string[] }, message) => {
    for (const host of ['claude-code', 'codex', 'cursor'] as const) {
      const dir = project({ tests });
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'p', scripts: { build: 'true' } }));
      const run = await hook(host, dir, stopInput(dir));
      const output = answer(host, run);
      const shown = [tests.command, ...(tests.args ?? [])].join(' ');
      const line = new RegExp(`stopwise: the test command \`${shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\` ${message.source}.*; the stop was allowed unchecked\\. Fix tests\\.command in .*stopwise\\.config\\.json; a person should look\\.`);
      if (host === 'cursor') expect(output).toEqual({});
      else expect(output).toEqual({ systemMessage: expect.stringMatching(line) });
      expect(run.stderr).toMatch(line);
      expect(JSON.stringify(output)).not.toMatch(/No tests ran/);
      expect(onlyState(dir)).toMatchObject({ consecutiveBlocks: 0, totals: { handoffs: 1 } });
    }
  });

  it('lets the agent stop with a message when the configuration is missing or invalid', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'stopwise-noconfig-'));
    const missing = answer('claude-code', await hook('claude-code', empty, stopInput(empty)));
    expect(missing?.systemMessage).toMatch(/no stopwise.config.json in .* Run `stopwise init claude-code`/);
    const dir = project({ tests: { command: 'npm test', timeoutMs: -5 } });
    const invalid = answer('claude-code', await hook('claude-code', dir, stopInput(dir)));
    expect(invalid?.systemMessage).toMatch(/configuration is invalid \(.*tests.timeoutMs: must be above 0, got -5\)/);
  });

  it('finds the configuration through CLAUDE_PROJECT_DIR when the input has no cwd', async () => {
    const dir = project();
    const input = stopInput(dir);
    delete input.cwd;
    const run = await runCli(['hook', 'claude-code'], { cwd: tmpdir(), input: JSON.stringify(input), env: { ...ENV, CLAUDE_PROJECT_DIR: dir } });
    expect(answer('claude-code', run)?.decision).toBe('block');
  });

  it('prints its help', async () => {
    const run = await runCli(['hook', '--help'], { env: ENV });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^usage: stopwise hook <claude-code\|codex\|cursor\|copilot\|gemini>/);
  });

  it('exits 1, never 2 (a block for Claude Code and Codex), on a usage error, and says so on stderr', async () => {
    for (const args of [['hook'], ['hook', 'vscode'], ['hook', 'claude'], ['hook', 'codex', 'extra'], ['hook', 'codex', '--verbose'], ['hook', '--host=codex']]) {
      const run = await runCli(args, { env: ENV, input: '{}' });
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^stopwise hook: (name the host|unknown host|unexpected argument|unknown option)/);
      expect(run.stderr).toMatch(/The stop goes ahead unchecked/);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
