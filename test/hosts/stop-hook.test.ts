import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TestEvidence } from '../../src/core/test-evidence.js';
import { DecisionModelError } from '../../src/decision-model/decision-model-error.js';
import { createScriptedClient } from '../../src/testing/scripted-client.js';
import { acquireFileLock } from '../../src/hosts/file-lock.js';
import { stopHookDeadlineMs } from '../../src/hosts/hook-deadline.js';
import { HOSTS, type HookEvent, type HookHost } from '../../src/hosts/host.js';
import type { ProjectTestRun, ProjectTestRunner } from '../../src/hosts/project-tests.js';
import type { RunHookOptions } from '../../src/hosts/run-hook.js';
import { parseSessionState, type SessionState } from '../../src/hosts/session-state.js';
import { pruneSessionStates, runStopHook, SESSION_RETENTION_MS } from '../../src/hosts/stop-hook.js';
import { FAKE_CLOCK, onFakeClock, until, watch } from './fake-clock.js';

const RED: TestEvidence = { passed: false, failed: ['login > shows errors'], ran: 4 };
const GREEN: TestEvidence = { passed: true, failed: [], ran: 4 };

const folders: string[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function project(config: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-stop-hook-'));
  folders.push(dir);
  writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'unused' }, ...config }));
  return dir;
}

/** A runner that gives these runs in turn and records the previous evidence it was handed. */
function runner(...runs: (ProjectTestRun | TestEvidence)[]): ProjectTestRunner & { readonly previous: (TestEvidence | undefined)[] } {
  const previous: (TestEvidence | undefined)[] = [];
  return {
    previous,
    async run(_tests, options) {
      previous.push(options.previous);
      const next = runs.shift();
      if (next === undefined) throw new Error('no more test runs');
      return 'outcome' in next ? next : { outcome: 'ran', evidence: next };
    },
  };
}

/** Always the same evidence. */
const always = (evidence: TestEvidence): ProjectTestRunner => ({ run: async () => ({ outcome: 'ran', evidence }) });

type StopEvent = Extract<HookEvent, { kind: 'stop' }>;
const stopEvent = (dir: string, extra: Partial<StopEvent> = {}): StopEvent => ({ kind: 'stop', eventName: 'Stop', sessionId: 's', cwd: dir, lastMessage: 'done', reentered: false, ...extra });

function stop(dir: string, options: RunHookOptions, extra: Partial<StopEvent> = {}, host: HookHost = 'claude-code') {
  return runStopHook(HOSTS[host], stopEvent(dir, extra), [dir], { env: {}, ...options });
}

const stateDir = (dir: string) => join(dir, '.stopwise/state');
const sessionFiles = (dir: string) => (existsSync(stateDir(dir)) ? readdirSync(stateDir(dir)).filter((name) => /^session-[0-9a-f]{32}\.json$/.test(name)) : []);
function onlyState(dir: string): SessionState {
  const [file] = sessionFiles(dir);
  if (file === undefined) throw new Error('no session state');
  const state = parseSessionState(JSON.parse(readFileSync(join(stateDir(dir), file), 'utf8')));
  if (state === undefined) throw new Error('not session state');
  return state;
}

describe('runStopHook', () => {
  it('runs the tests and asks the decision model it is given, passes the last evidence on, and asks nothing again on the re-entry', async () => {
    const dir = project({ task: 'Ship the login page', acceptance: ['errors are shown'], decisionModel: { client: 'system-one' } });
    const tests = runner(RED, GREEN, GREEN);
    const client = createScriptedClient([
      { acceptanceCovered: 0.2, noOpenQuestions: 0.9 },
      { acceptanceCovered: 0.95, noOpenQuestions: 0.9 },
    ]);
    const first = await stop(dir, { testRunner: tests, client });
    expect(JSON.parse(first.stdout)).toEqual({ decision: 'block', reason: expect.stringMatching(/^1 test failed: login > shows errors\. /) });
    expect(client.calls[0]?.state).toMatchObject({ task: 'Ship the login page', output: 'done', acceptance: ['errors are shown'], tests: RED });
    expect(await stop(dir, { testRunner: tests, client }, { reentered: true })).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(client.calls).toHaveLength(1);
    expect(await stop(dir, { testRunner: tests, client })).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(client.calls).toHaveLength(2);
    expect(tests.previous).toEqual([undefined, RED, GREEN]);
  });

  it('never asks a decision model when none is configured or given, whatever the environment holds', async () => {
    const dir = project();
    const env = { SYSTEM_ONE_API_KEY: 'k', SYSTEM_ONE_BASE_URL: 'http://127.0.0.1:9/v1', SYSTEM_ONE_MODEL: 'm' };
    expect(await stop(dir, { env, testRunner: runner(GREEN) })).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('hands off with the reason the decision model could not be asked when the tests pass', async () => {
    const dir = project({ task: 't', decisionModel: { client: 'system-one' } });
    const client = createScriptedClient([new DecisionModelError('rate_limited', 'HTTP 429 from System One', { status: 429 })]);
    const run = await stop(dir, { testRunner: runner(GREEN), client }, {}, 'codex');
    const { systemMessage } = JSON.parse(run.stdout) as { systemMessage: string };
    expect(systemMessage).toMatch(/by rule decision_model_unavailable.*\nstopwise: the decision model could not be asked \(HTTP 429 from System One\); the tests decided on their own\.$/s);
    expect(run.stderr).toBe(`${systemMessage}\n`);
  });

  it('lets the stop go ahead with a line for the person when the configuration is missing or invalid', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'stopwise-stop-hook-none-'));
    folders.push(empty);
    const missing = await stop(empty, { testRunner: runner() });
    expect(JSON.parse(missing.stdout).systemMessage).toMatch(
      /^stopwise: no stopwise\.config\.json in .* or any parent folder; run `stopwise init claude-code` to set it up; the stop was allowed unchecked\. A person should look\.$/,
    );
    const invalid = await stop(project({ tests: { command: 'npm test', timeoutMs: -5 }, maxConsecutiveBlock: 2 }), { testRunner: runner() });
    const message = JSON.parse(invalid.stdout).systemMessage as string;
    expect(message).toMatch(/^stopwise: the configuration is invalid \(.*stopwise\.config\.json: tests\.timeoutMs: .*; .*stopwise\.config\.json: maxConsecutiveBlock: unknown field \(did you mean "maxConsecutiveBlocks"\?\)\); the stop was allowed unchecked/);
  });

  it('turns an unexpected failure into an allowed stop with one line, never a crash; Cursor prints it once, on stderr', async () => {
    const broken: ProjectTestRunner = {
      run() {
        throw new Error('disk on fire');
      },
    };
    const run = await stop(project(), { testRunner: broken }, {}, 'cursor');
    expect(run).toEqual({ exitCode: 0, stdout: '{}\n', stderr: 'stopwise: the hook failed (disk on fire); the stop was allowed unchecked. A person should look.\n' });
  });

  it('does not save its state when another invocation took its lock over while it ran', async () => {
    const dir = project();
    const takeover: ProjectTestRunner = {
      async run() {
        const [lock] = readdirSync(stateDir(dir)).filter((name) => name.endsWith('.json.lock'));
        writeFileSync(join(stateDir(dir), lock as string), JSON.stringify({ pid: process.pid, host: hostname(), token: 'another-invocation' }));
        return { outcome: 'ran', evidence: RED };
      },
    };
    const run = await stop(dir, { testRunner: takeover });
    expect(JSON.parse(run.stdout)).toMatchObject({ decision: 'block' });
    expect(run.stderr).toMatch(/^stopwise: another hook of this session took over the lock on .* was not saved/);
    expect(sessionFiles(dir)).toEqual([]);
  });

  it('keeps one span per session and agent, and never uses a session id as a path', async () => {
    const dir = project();
    for (const agentId of ['agent-a', 'agent-b']) expect(JSON.parse((await stop(dir, { testRunner: always(RED) }, { eventName: 'SubagentStop', agentId })).stdout).decision).toBe('block');
    expect(JSON.parse((await stop(dir, { testRunner: always(RED) }, { eventName: 'SubagentStop', agentId: 'agent-a' })).stdout).systemMessage).toMatch(/by rule tests_failed_after_block/);
    for (const sessionId of ['../../../../evil', '/etc/passwd', 'a/b\\c', '..', '']) {
      expect(JSON.parse((await stop(dir, { testRunner: always(RED) }, { sessionId })).stdout).decision).toBe('block');
    }
    expect(sessionFiles(dir)).toHaveLength(7);
    expect(readdirSync(dir).sort()).toEqual(['.stopwise', 'stopwise.config.json']);
  });

  it('resets a state file that is not valid state, with a warning, and still decides', async () => {
    const dir = project();
    await stop(dir, { testRunner: always(RED) });
    const [file] = sessionFiles(dir);
    writeFileSync(join(stateDir(dir), file as string), '{"version": 2, "stop": ');
    const run = await stop(dir, { testRunner: always(RED) });
    expect(run.stderr).toMatch(/^stopwise: the state file .* was not valid session state; it was reset/);
    expect(JSON.parse(run.stdout).decision).toBe('block');
    expect(onlyState(dir)).toMatchObject({ stop: { step: 1, retries: 1 }, lastStop: { kind: 'block' } });
  });

  it('records that the host, not stopwise, ended the run when a stop comes afresh after a block of its own', async () => {
    const dir = project();
    await stop(dir, { testRunner: always(RED) });
    expect(onlyState(dir).lastStop).not.toHaveProperty('previousRunEndedBy');
    // not a re-entry: the host ended the last run on the block, and this is a new one
    await stop(dir, { testRunner: always(GREEN) });
    expect(onlyState(dir).lastStop).toMatchObject({ kind: 'allow', previousRunEndedBy: 'host' });
  });

  it("reads a stop in the user turn of a block as a re-entry, whatever the host's flag says (Gemini after a retry that ran a tool)", async () => {
    const dir = project();
    const first = await stop(dir, { testRunner: always(RED) }, { turn: 'turn-1' }, 'gemini');
    expect(JSON.parse(first.stdout)).toMatchObject({ decision: 'deny' });
    // The same turn, stop_hook_active false: the retry's stop. Still red, so it is handed off, not blocked again.
    const second = await stop(dir, { testRunner: always(RED) }, { turn: 'turn-1' }, 'gemini');
    expect(second.stdout).not.toContain('"deny"');
    expect(onlyState(dir).lastStop).toMatchObject({ kind: 'handoff', turn: 'turn-1' });
    expect(onlyState(dir).lastStop).not.toHaveProperty('previousRunEndedBy');
    // After the hand-off a new span starts: the next turn's red stop is blocked. A stop of another turn after that
    // block is one the host started afresh: recorded so, and still handed off (only the hook ends a span).
    const next = await stop(dir, { testRunner: always(RED) }, { turn: 'turn-2' }, 'gemini');
    expect(JSON.parse(next.stdout)).toMatchObject({ decision: 'deny' });
    await stop(dir, { testRunner: always(RED) }, { turn: 'turn-3' }, 'gemini');
    expect(onlyState(dir).lastStop).toMatchObject({ kind: 'handoff', previousRunEndedBy: 'host', turn: 'turn-3' });
  });

  it('reaches the step cap, and sees a stall, across invocations: the span lives in the session state', async () => {
    const capped = project({ maxConsecutiveBlocks: 10, policy: { maxSteps: 3, stallRounds: 10 } });
    const answers = [];
    for (let attempt = 0; attempt < 3; attempt++) answers.push(JSON.parse((await stop(capped, { testRunner: always(RED) }, { lastMessage: `try ${attempt}`, reentered: attempt > 0 })).stdout));
    expect(answers.map((answer) => answer.decision ?? 'handoff')).toEqual(['block', 'block', 'handoff']);
    expect(answers[2].systemMessage).toMatch(/by rule hard_cap: the step cap is reached \(3 of 3\)/);
    const stalled = project({ maxConsecutiveBlocks: 10 });
    const same = [];
    for (let attempt = 0; attempt < 3; attempt++) same.push(JSON.parse((await stop(stalled, { testRunner: always(RED) }, { reentered: attempt > 0 })).stdout));
    expect(same.map((answer) => answer.decision ?? 'handoff')).toEqual(['block', 'block', 'handoff']);
    expect(same[2].systemMessage).toMatch(/by rule stalled: the last 3 steps made no progress/);
  });

  it('keeps an exact count over twenty invocations at once on one session', async () => {
    const dir = project({ maxConsecutiveBlocks: 100, policy: { maxSteps: 100, stallRounds: 50 } });
    // Claude Code's own cap turned off, as its variable allows, so that twenty blocks in a row are possible
    const runs = await Promise.all(Array.from({ length: 20 }, () => stop(dir, { env: { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '0' }, testRunner: always(RED) })));
    expect(runs.map((run) => JSON.parse(run.stdout).decision)).toEqual(Array(20).fill('block'));
    expect(onlyState(dir).stop).toMatchObject({ step: 20, retries: 20 });
  });

  it('alternates exactly between block and hand-off over twenty invocations at once, with the default of one block', async () => {
    const dir = project();
    const runs = await Promise.all(Array.from({ length: 20 }, () => stop(dir, { testRunner: always(RED) })));
    expect(runs.filter((run) => JSON.parse(run.stdout).decision === 'block')).toHaveLength(10);
    expect(onlyState(dir)).toMatchObject({ stop: null, lastStop: { kind: 'handoff' } });
  });

  it('takes over at once the lock of an invocation that died', async () => {
    const dir = project();
    await stop(dir, { testRunner: always(RED) });
    const [file] = sessionFiles(dir);
    const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
    writeFileSync(join(stateDir(dir), `${file}.lock`), JSON.stringify({ pid: dead, host: hostname(), token: 'crashed' }));
    expect(JSON.parse((await stop(dir, { testRunner: always(RED) })).stdout).systemMessage).toMatch(/by rule tests_failed_after_block/);
  });
});

describe('runStopHook: the outcomes file', () => {
  it('appends a record when it lets a stop through or hands it off, none when it blocks', async () => {
    const dir = project({ outcomesFile: 'logs/outcomes.jsonl', taskType: 'bugfix', policy: { maxSteps: 3 } });
    let clock = Date.UTC(2026, 2, 2, 10);
    const options = { testRunner: runner(RED, GREEN, RED, { ...RED, failed: ['login > logout'] }), now: () => new Date(clock) };
    const file = join(dir, 'logs/outcomes.jsonl');
    expect(JSON.parse((await stop(dir, options, { sessionId: 'a', lastMessage: 'I am done.' })).stdout).decision).toBe('block');
    expect(existsSync(file)).toBe(false);
    clock += 60_000;
    expect((await stop(dir, options, { sessionId: 'a', lastMessage: 'I am done.' })).stdout).toBe('');
    clock += 60_000;
    expect(JSON.parse((await stop(dir, options, { sessionId: 'b' })).stdout).decision).toBe('block');
    clock += 60_000;
    const handOff = JSON.parse((await stop(dir, options, { sessionId: 'b', lastMessage: 'x'.repeat(10_000) })).stdout).systemMessage as string;
    const records = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { at: string; taskType?: string; outcome: Record<string, unknown> });
    expect(records.map((record) => [record.at, record.taskType, record.outcome.exit, record.outcome.steps])).toEqual([
      ['2026-03-02T10:01:00.000Z', 'bugfix', 'success', 2],
      ['2026-03-02T10:03:00.000Z', 'bugfix', 'need_help', 2],
    ]);
    expect(records[0]?.outcome).toMatchObject({ note: 'the stop hook let the agent stop: the tests passed (4 ran)', text: 'I am done.' });
    expect(records[1]?.outcome).toMatchObject({ question: handOff });
    expect((records[1]?.outcome.text as string).length).toBe(4000);
  });

  it('warns and still answers when the outcomes file cannot be written', async () => {
    const dir = project({ outcomesFile: 'outcomes.jsonl' });
    mkdirSync(join(dir, 'outcomes.jsonl'));
    const run = await stop(dir, { testRunner: runner(GREEN) }, {}, 'codex');
    expect(run).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: expect.stringMatching(/^stopwise: the outcome of this stop could not be appended to .*outcomes\.jsonl \(.*EISDIR.*\); the stop itself is not affected\.\n$/),
    });
  });
});

describe('runStopHook: one deadline from the start of the hook', () => {
  const CONFIG = { task: 'Ship it', tests: { command: 'unused', timeoutMs: 60_000 }, decisionModel: { client: 'system-one', timeoutMs: 30_000 } };
  const deadlineMs = stopHookDeadlineMs({ tests: { timeoutMs: 60_000 }, decisionModel: { timeoutMs: 30_000 } });
  /** A start so long ago that `leftMs` of the deadline is left. */
  const startedWith = (leftMs: number) => Date.now() - deadlineMs + leftMs;
  const DEADLINE = 'its deadline is 140 s from its start: tests.timeoutMs + 2 × decisionModel.timeoutMs + 20 s';

  it('is tests.timeoutMs + 2 × decisionModel.timeoutMs + 20 s', () => {
    expect(deadlineMs).toBe(140_000);
  });

  // The timers run on a fake clock that the tests move by hand once the hook has reached the step in question: how
  // long the file system or the machine takes never decides which timer fires first.
  beforeEach(() => {
    vi.useFakeTimers(FAKE_CLOCK);
  });

  it('gives the test command only the time left, less what it keeps to save the state and answer', async () => {
    const given: number[] = [];
    const tests: ProjectTestRunner = {
      async run(config) {
        given.push(config.timeoutMs);
        return { outcome: 'timeout', timeoutMs: config.timeoutMs };
      },
    };
    const run = await stop(project(CONFIG), { testRunner: tests, startedAt: startedWith(10_000) });
    expect(given).toEqual([8_000]);
    expect(JSON.parse(run.stdout).systemMessage).toBe(
      "stopwise: the test command was stopped after 8 s, when the hook's deadline was about to run out; the stop was allowed without test evidence. A person should look.",
    );
  });

  it('allows the stop with a line when a step overruns the deadline, releases the lock and ends the span', async () => {
    const dir = project(CONFIG);
    let asked = 0;
    const hanging: ProjectTestRunner = {
      run: () => {
        asked += 1;
        return new Promise(() => undefined);
      },
    };
    const run = watch(stop(dir, { testRunner: hanging, startedAt: startedWith(3_000) }, {}, 'codex'));
    await until(() => asked === 1);
    // 3 s left, less the second kept for answering
    await vi.advanceTimersByTimeAsync(2_000);
    await until(() => run.settled);
    expect(JSON.parse((await run.result).stdout)).toEqual({
      systemMessage: `stopwise: the hook ran out of time while running the tests (${DEADLINE}); the stop was allowed unchecked. A person should look.`,
    });
    expect(readdirSync(stateDir(dir)).some((name) => name.endsWith('.lock'))).toBe(false);
    expect(onlyState(dir)).toMatchObject({ stop: null, lastStop: { kind: 'handoff' } });
  });

  it('cuts a decision model that does not answer, and lets the evidence decide with a warning', async () => {
    const dir = project(CONFIG);
    let asked = 0;
    const listening = {
      evaluate: (_request: unknown, options?: { signal?: AbortSignal }) => {
        asked += 1;
        return new Promise<never>((_resolve, reject) => options?.signal?.addEventListener('abort', () => reject(options.signal?.reason)));
      },
    };
    const run = watch(stop(dir, { testRunner: always(RED), client: listening, startedAt: startedWith(4_000) }));
    await until(() => asked === 1);
    // the model gets 2 s (two seconds kept); the clock then stands while the hook answers
    await vi.advanceTimersByTimeAsync(2_000);
    await until(() => run.settled);
    expect(JSON.parse((await run.result).stdout)).toEqual({
      decision: 'block',
      reason: expect.stringContaining('login > shows errors'),
      systemMessage: "stopwise: the decision model could not be asked (no answer before the hook's deadline); the tests decided on their own.",
    });
  });

  it('answers at the deadline even when the decision model ignores the abort', async () => {
    const dir = project(CONFIG);
    let asked = 0;
    const deaf = {
      evaluate: () => {
        asked += 1;
        return new Promise<never>(() => undefined);
      },
    };
    const run = watch(stop(dir, { testRunner: always(GREEN), client: deaf, startedAt: startedWith(4_000) }));
    await until(() => asked === 1);
    await vi.advanceTimersByTimeAsync(2_000);
    await vi.advanceTimersByTimeAsync(1_000);
    await until(() => run.settled);
    expect(JSON.parse((await run.result).stdout).systemMessage).toBe(
      `stopwise: the hook ran out of time while asking the decision model (${DEADLINE}); the stop was allowed unchecked. A person should look.`,
    );
    expect(readdirSync(stateDir(dir)).some((name) => name.endsWith('.lock'))).toBe(false);
  });

  it('waits at most 20 s for the lock of a session that another invocation holds', async () => {
    const dir = project();
    expect((await stop(dir, { testRunner: always(GREEN) })).stdout).toBe('');
    const [file] = sessionFiles(dir);
    const held = await acquireFileLock(join(stateDir(dir), file as string));
    try {
      const started = Date.now();
      const run = await onFakeClock(stop(dir, { testRunner: always(GREEN) }), vi.getTimerCount());
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(20_000);
      // past it by at most one back-off step of the lock (100 ms, with as much jitter)
      expect(waited).toBeLessThanOrEqual(20_200);
      expect(JSON.parse(run.stdout).systemMessage).toMatch(/^stopwise: another stop hook of this session is still running \(.*longer than 20 s\); the stop was allowed unchecked/);
    } finally {
      await held.release();
    }
  });
});

describe('pruneSessionStates', () => {
  const NOW = new Date('2026-03-01T00:00:00Z');
  const ago = (ms: number) => new Date(NOW.getTime() - ms);

  it('deletes sessions untouched for 7 days and temporary files older than an hour, at most once an hour, and nothing else', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-prune-'));
    folders.push(dir);
    const files = {
      old: ['session-old.json', ago(SESSION_RETENTION_MS + 60_000)],
      recent: ['session-new.json', ago(2 * 3600_000)],
      oldLock: ['session-old.json.lock', ago(SESSION_RETENTION_MS + 60_000)],
      tmp: ['session-new.json.1.ab.tmp', ago(2 * 3600_000)],
      freshTmp: ['session-new.json.2.cd.tmp', ago(60_000)],
      other: ['notes.txt', ago(SESSION_RETENTION_MS * 2)],
    } as const;
    for (const [name, at] of Object.values(files)) {
      writeFileSync(join(dir, name), '{}');
      utimesSync(join(dir, name), at, at);
    }
    expect(await pruneSessionStates(dir, NOW)).toEqual({ pruned: 3 });
    expect(readdirSync(dir).sort()).toEqual(['.last-prune', 'notes.txt', 'session-new.json', 'session-new.json.2.cd.tmp']);
    writeFileSync(join(dir, 'session-old.json'), '{}');
    utimesSync(join(dir, 'session-old.json'), files.old[1], files.old[1]);
    expect(await pruneSessionStates(dir, new Date(NOW.getTime() + 60_000))).toEqual({ pruned: 0 });
    // an hour later: the old session again, and the temporary file that is now an hour old
    expect(await pruneSessionStates(dir, new Date(NOW.getTime() + 3600_000 + 1))).toEqual({ pruned: 2 });
  });

  it('runs after a stop: the state of a session untouched for a week goes', async () => {
    const dir = project();
    mkdirSync(stateDir(dir), { recursive: true });
    const stale = join(stateDir(dir), 'session-00000000000000000000000000000000.json');
    writeFileSync(stale, '{}');
    const weekAgo = new Date(Date.now() - SESSION_RETENTION_MS - 60_000);
    utimesSync(stale, weekAgo, weekAgo);
    await stop(dir, { testRunner: always(GREEN) });
    expect(existsSync(stale)).toBe(false);
    expect(sessionFiles(dir)).toHaveLength(1);
  });
});
