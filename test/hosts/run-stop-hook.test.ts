import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TestEvidence } from '../../src/core/test-evidence.js';
import { DecisionModelError } from '../../src/decision-model/decision-model-error.js';
import { createScriptedClient } from '../../src/testing/scripted-client.js';
import type { HookTestResult, HookTestRunner } from '../../src/hosts/hook-test-runner.js';
import { acquireFileLock } from '../../src/hosts/file-lock.js';
import { stopHookDeadlineMs } from '../../src/hosts/hook-deadline.js';
import { runStopHook } from '../../src/hosts/run-stop-hook.js';
import { FAKE_CLOCK, onFakeClock, until, watch } from './fake-clock.js';
import { parseStopwiseConfig } from '../../src/hosts/stopwise-config.js';

function project(config: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-run-'));
  writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'unused' }, ...config }));
  return dir;
}

/** A runner that answers from a list and records the previous evidence it was given. */
function scriptedRunner(results: HookTestResult[]): HookTestRunner & { previous: (TestEvidence | undefined)[] } {
  const previous: (TestEvidence | undefined)[] = [];
  return {
    previous,
    async run(_tests, options) {
      previous.push(options.previous);
      const next = results.shift();
      if (next === undefined) throw new Error('no more scripted test results');
      return next;
    },
  };
}

const stdin = (dir: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'done', ...extra });

describe('runStopHook', () => {
  it('runs with the given test runner and decision model, and passes the last evidence on', async () => {
    const dir = project({ task: 'Ship the login page', acceptance: ['errors are shown'], judge: { client: 'system-one' } });
    const red: TestEvidence = { passed: false, failed: ['login > shows errors'], ran: 4 };
    const green: TestEvidence = { passed: true, failed: [], ran: 4 };
    const runner = scriptedRunner([{ outcome: 'ran', evidence: red }, { outcome: 'reused', evidence: green }, { outcome: 'ran', evidence: green }]);
    const client = createScriptedClient([
      { acceptanceCovered: 0.2, noOpenQuestions: 0.9 },
      { acceptanceCovered: 0.95, noOpenQuestions: 0.9 },
    ]);
    const options = { env: {}, testRunner: runner, client };
    const first = await runStopHook('claude-code', stdin(dir), options);
    expect(JSON.parse(first.stdout)).toMatchObject({ decision: 'block', reason: expect.stringContaining('login > shows errors') });
    expect(client.calls[0]?.state).toMatchObject({
      task: 'Ship the login page',
      output: 'done',
      acceptance: ['errors are shown'],
      tests: { passed: false, ran: 4, failed: ['login > shows errors'] },
    });
    const reentry = await runStopHook('claude-code', stdin(dir), options);
    expect(reentry).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(client.calls).toHaveLength(1);
    const fresh = await runStopHook('claude-code', stdin(dir), options);
    expect(fresh).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(client.calls).toHaveLength(2);
    expect(runner.previous).toEqual([undefined, expect.objectContaining(red), expect.objectContaining(green)]);
  });

  it('does not ask the model when the evidence decides, and lets a model error through as a message', async () => {
    const dir = project({ task: 't', judge: { client: 'system-one' }, maxConsecutiveBlocks: 5 });
    const client = createScriptedClient([new DecisionModelError('rate_limited', 'HTTP 429 from System One', { status: 429 })]);
    const options = {
      env: {},
      testRunner: scriptedRunner([
        { outcome: 'ran', evidence: { passed: false, failed: [], ran: 0 } },
        { outcome: 'ran', evidence: { passed: true, failed: [], ran: 3 } },
      ]),
      client,
    };
    const none = await runStopHook('codex', stdin(dir), options);
    expect(JSON.parse(none.stdout).reason).toMatch(/^No tests ran/);
    expect(client.calls).toHaveLength(0);
    const green = await runStopHook('codex', stdin(dir), options);
    expect(JSON.parse(green.stdout)).toEqual({ systemMessage: expect.stringContaining('HTTP 429 from System One') });
    expect(client.calls).toHaveLength(1);
  });

  it('never asks a model when none is configured or given', async () => {
    const dir = project({});
    const run = await runStopHook('claude-code', stdin(dir), {
      env: { SYSTEM_ONE_API_KEY: 'k', SYSTEM_ONE_BASE_URL: 'http://127.0.0.1:9/v1', SYSTEM_ONE_MODEL: 'm' },
      testRunner: scriptedRunner([{ outcome: 'ran', evidence: { passed: true, failed: [], ran: 2 } }]),
    });
    expect(run).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('does not save its state when another invocation took its lock over while it ran', async () => {
    const dir = project({});
    const stateDir = join(dir, '.stopwise/state');
    const takeover: HookTestRunner = {
      async run() {
        const [lock] = readdirSync(stateDir).filter((name) => name.endsWith('.json.lock'));
        writeFileSync(join(stateDir, lock as string), JSON.stringify({ pid: process.pid, host: hostname(), token: 'another-invocation' }));
        return { outcome: 'ran', evidence: { passed: false, failed: ['a > b'], ran: 1 } };
      },
    };
    const run = await runStopHook('claude-code', stdin(dir), { env: {}, testRunner: takeover });
    expect(JSON.parse(run.stdout)).toMatchObject({ decision: 'block' });
    expect(run.stderr).toMatch(/took over the lock on .* was not saved/);
    expect(readdirSync(stateDir).filter((name) => name.startsWith('session-') && name.endsWith('.json'))).toEqual([]);
  });

  it('turns an unexpected failure into an allowed stop with a message, never a crash', async () => {
    const dir = project({});
    const broken: HookTestRunner = {
      run() {
        throw new Error('disk on fire');
      },
    };
    const run = await runStopHook('cursor', stdin(dir), { env: {}, testRunner: broken });
    expect(run).toEqual({ exitCode: 0, stdout: '{}\n', stderr: expect.stringMatching(/the hook failed \(disk on fire\)/) });
  });
});

describe('runStopHook: one deadline from the start of the hook', () => {
  const CONFIG = { task: 'Ship it', tests: { command: 'unused', timeoutMs: 60_000 }, judge: { client: 'system-one', timeoutMs: 30_000 } };
  const deadlineMs = (() => {
    const parsed = parseStopwiseConfig(CONFIG);
    if (!parsed.ok) throw new Error(parsed.message);
    return stopHookDeadlineMs(parsed.config);
  })();
  /** A start so long ago that `leftMs` of the deadline is left. */
  const startedWith = (leftMs: number) => Date.now() - deadlineMs + leftMs;
  const stateDir = (dir: string) => join(dir, '.stopwise/state');
  const files = (dir: string) => readdirSync(stateDir(dir));
  const state = (dir: string) => {
    const [file] = files(dir).filter((name) => name.endsWith('.json'));
    return JSON.parse(readFileSync(join(stateDir(dir), file as string), 'utf8')) as Record<string, unknown>;
  };
  const green: HookTestResult = { outcome: 'ran', evidence: { passed: true, failed: [], ran: 3 } };

  it('is tests.timeoutMs + 2 × judge.timeoutMs + 20 s', () => {
    expect(deadlineMs).toBe(60_000 + 2 * 30_000 + 20_000);
  });

  // The deadline's timers run on a fake clock that the tests move by hand once the hook has reached the step in
  // question: how long the file system or the machine takes never decides which timer fires first.
  beforeEach(() => {
    vi.useFakeTimers(FAKE_CLOCK);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives the test command only the time left, and says when the deadline stopped it', async () => {
    const dir = project(CONFIG);
    const given: number[] = [];
    const runner: HookTestRunner = {
      async run(tests) {
        given.push(tests.timeoutMs);
        return { outcome: 'timeout', timeoutMs: tests.timeoutMs };
      },
    };
    const run = await runStopHook('claude-code', stdin(dir), { env: {}, testRunner: runner, startedAt: startedWith(10_000) });
    // 10 s left, less the two reserves of 1 s kept for saving the state and answering
    expect(given).toEqual([8_000]);
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout).systemMessage).toMatch(
      /^stopwise: the test command was stopped after 8 s, when the hook's deadline \(140 s from its start: tests.timeoutMs \+ 2 × judge.timeoutMs \+ 20 s\) was about to run out; .*A person should look\.$/,
    );
  });

  it('says the time allowed to the test command as it was set: 1500 ms is 1.5 s', async () => {
    const dir = project({ ...CONFIG, tests: { command: 'unused', timeoutMs: 1500 } });
    const runner: HookTestRunner = {
      async run(tests) {
        return { outcome: 'timeout', timeoutMs: tests.timeoutMs };
      },
    };
    const run = await runStopHook('claude-code', stdin(dir), { env: {}, testRunner: runner });
    expect(JSON.parse(run.stdout).systemMessage).toMatch(/^stopwise: the test command did not finish within 1\.5 s \(tests.timeoutMs\) and was stopped;/);
  });

  it('allows the stop with a message when a step overruns the deadline, releases the lock and ends the span', async () => {
    const dir = project(CONFIG);
    let asked = 0;
    const hanging: HookTestRunner = {
      run: () => {
        asked += 1;
        return new Promise(() => undefined);
      },
    };
    const run = watch(runStopHook('codex', stdin(dir), { env: {}, testRunner: hanging, startedAt: startedWith(3_000) }));
    await until(() => asked === 1);
    // 3 s left, less the reserve of 1 s for answering
    await vi.advanceTimersByTimeAsync(2_000);
    await until(() => run.settled);
    const answer = await run.result;
    expect(answer.exitCode).toBe(0);
    expect(JSON.parse(answer.stdout)).toEqual({
      systemMessage: "stopwise: the hook ran out of time while running the tests (its deadline is 140 s from its start: tests.timeoutMs + 2 × judge.timeoutMs + 20 s); the stop was allowed unchecked. A person should look.",
    });
    expect(files(dir).some((name) => name.endsWith('.lock'))).toBe(false);
    expect(state(dir)).toMatchObject({ consecutiveBlocks: 0, totals: { attempts: 1, handoffs: 1 }, lastOutcome: { kind: 'handoff' } });
  });

  it('cuts a decision model that does not answer, and lets the evidence decide with a warning', async () => {
    const dir = project(CONFIG);
    const runner = scriptedRunner([{ outcome: 'ran', evidence: { passed: false, failed: ['a > b'], ran: 2 } }, green]);
    let asked = 0;
    const listening = {
      evaluate: (_request: unknown, options?: { signal?: AbortSignal }) => {
        asked += 1;
        return new Promise<never>((_resolve, reject) => options?.signal?.addEventListener('abort', () => reject(options.signal?.reason)));
      },
    };
    /** Runs the hook with 4 s left: the model gets 2 s (two reserves kept), the work as a whole 3 s. */
    const askedOnce = async (session: string) => {
      const before = asked;
      const run = watch(runStopHook('claude-code', stdin(dir, { session_id: session }), { env: {}, testRunner: runner, client: listening, startedAt: startedWith(4_000) }));
      await until(() => asked === before + 1);
      // the model's time runs out; the clock stays there while the hook answers, a second before its own deadline
      await vi.advanceTimersByTimeAsync(2_000);
      await until(() => run.settled);
      return run.result;
    };
    const red = await askedOnce('s');
    expect(JSON.parse(red.stdout)).toMatchObject({
      decision: 'block',
      reason: expect.stringContaining('a > b'),
      systemMessage: expect.stringContaining("could not be asked (no answer before the hook's deadline (140 s from its start"),
    });
    const passing = await askedOnce('other');
    expect(JSON.parse(passing.stdout).systemMessage).toMatch(/^stopwise: the tests pass, but the decision model could not be asked \(no answer before the hook's deadline/);
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
    const run = watch(runStopHook('claude-code', stdin(dir), { env: {}, testRunner: scriptedRunner([green]), client: deaf, startedAt: startedWith(4_000) }));
    await until(() => asked === 1);
    // the model's 2 s run out and it does not stop; the work's 3 s run out a second later
    await vi.advanceTimersByTimeAsync(2_000);
    await vi.advanceTimersByTimeAsync(1_000);
    await until(() => run.settled);
    const answer = await run.result;
    expect(JSON.parse(answer.stdout).systemMessage).toMatch(/^stopwise: the hook ran out of time while asking the decision model \(its deadline is 140 s/);
    expect(existsSync(join(stateDir(dir), `${files(dir).find((name) => name.endsWith('.json'))}.lock`))).toBe(false);
  });

  it('waits at most 20 s for the lock of a session that another invocation holds', async () => {
    const dir = project({ tests: { command: 'unused' } });
    const first = await runStopHook('claude-code', stdin(dir), { env: {}, testRunner: scriptedRunner([green]) });
    expect(first.stdout).toBe('');
    const [file] = files(dir).filter((name) => name.endsWith('.json'));
    // The clock moves only to the next timer while the waiting hook sleeps, as if the file system took no time: the
    // 20 s are counted exactly, however busy the machine. The holder's refresh runs on the same clock.
    {
      const held = await acquireFileLock(join(stateDir(dir), file as string));
      try {
        const started = Date.now();
        const idle = vi.getTimerCount();
        const run = await onFakeClock(runStopHook('claude-code', stdin(dir), { env: {}, testRunner: scriptedRunner([green]) }), idle);
        const waited = Date.now() - started;
        expect(waited).toBeGreaterThanOrEqual(20_000);
        // past the deadline by at most one back-off step of the lock (100 ms, with as much jitter)
        expect(waited).toBeLessThanOrEqual(20_200);
        expect(JSON.parse(run.stdout).systemMessage).toMatch(/another stop hook for this session is still running \(.*longer than 20 s\)/);
      } finally {
        await held.release();
      }
    }
    expect(existsSync(join(stateDir(dir), `${file as string}.lock`))).toBe(false);
  });
});
