import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runAgentLoop, stopReasonOf, type RunAgentLoopOptions, type StopOutcome, type TurnResult } from '../../src/index.js';
import {
  MODEL_CALL_MS,
  businessDecisionTask,
  easyTask,
  okToolTask,
  portalOfflineTask,
  threeSourcesTask,
  throwingToolTask,
} from '../fixtures/loop/scenarios.js';

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-30T09:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Runs the loop while the fake clock advances through every timer it sets. */
async function run(options: RunAgentLoopOptions): Promise<StopOutcome> {
  const outcome = runAgentLoop(options);
  await vi.runAllTimersAsync();
  return outcome;
}

function expectJsonSafe(outcome: StopOutcome): void {
  const { cause: _cause, ...plain } = outcome as StopOutcome & { cause?: unknown };
  expect(JSON.parse(JSON.stringify(plain))).toEqual(plain);
}

describe('runAgentLoop: one fixture per exit', () => {
  it('an easy task ends in success after the claim is verified', async () => {
    const task = easyTask();
    const outcome = await run(task.options);
    expect(outcome).toMatchObject({ exit: 'success', steps: 2, note: '2 + 3 = 5', text: 'The answer is 5.' });
    expect(stopReasonOf(outcome)).toBe('success');
    expect(outcome.trace.map((r) => r.step)).toEqual([1, 2]);
    expect(outcome.trace[1]).toMatchObject({ signal: { kind: 'done', note: '2 + 3 = 5' }, verification: { ok: true } });
    expect(outcome.trace.every((r) => r.ms === MODEL_CALL_MS)).toBe(true);
    expect(outcome.usage).toEqual({ steps: 2, wallClockMs: 2 * MODEL_CALL_MS, inputTokens: 3_200, outputTokens: 360, cost: 0.008, toolErrors: 0 });
    expect(task.toolCalls).toEqual(['calculator(2 + 3)']);
    expectJsonSafe(outcome);
  });

  it('a done with two of three sources is rejected, the missing criterion is fed back, and the next claim is accepted', async () => {
    const task = threeSourcesTask();
    const outcome = await run(task.options);
    expect(outcome).toMatchObject({ exit: 'success', steps: 4, note: 'report with 3 sources' });
    expect(outcome.trace[1]).toMatchObject({
      step: 2,
      signal: { kind: 'done' },
      verification: { ok: false, unmet: ['cites the customer survey'] },
    });
    expect(task.seen[2]?.unmet).toEqual(['cites the customer survey']);
    expect(task.seen[1]?.unmet).toEqual([]);
    expect(task.toolCalls).toContain('search(customer survey)');
    expect(outcome.trace[3]).toMatchObject({ verification: { ok: true } });
    expect(outcome.text).toContain('customer survey');
  });

  it('an impossible task (the portal is offline) ends in gave_up with what was tried', async () => {
    const task = portalOfflineTask();
    const outcome = await run(task.options);
    expect(outcome.exit).toBe('gave_up');
    if (outcome.exit !== 'gave_up') return;
    expect(outcome.note).toMatch(/HTTP 503.*twice/);
    expect(outcome.steps).toBe(3);
    expect(outcome.usage.toolErrors).toBe(2);
    expect(task.toolCalls).toEqual(['fetchInvoices()', 'fetchInvoices()']);
  });

  it('a business decision ends in need_help after the deadline when nobody answers', async () => {
    const task = businessDecisionTask(undefined, { humanTimeoutMs: 300_000 });
    const outcome = await run(task.options);
    expect(outcome).toMatchObject({
      exit: 'need_help',
      question: 'Approve a refund of 1,800 EUR, above the 500 EUR policy limit?',
      waitedMs: 300_000,
      steps: 1,
    });
    expect(task.asked).toHaveLength(1);
    expect(outcome.trace[0]?.human).toEqual({ question: task.asked[0], waitedMs: 300_000, timedOut: true });
    expect(outcome.trace[0]?.ms).toBe(MODEL_CALL_MS + 300_000);
    expect(stopReasonOf(outcome)).toBe('need_help');
  });

  it('a business decision that a person answers goes on with the answer and succeeds', async () => {
    const task = businessDecisionTask('Approve', { humanTimeoutMs: 300_000 });
    const outcome = await run(task.options);
    expect(outcome).toMatchObject({ exit: 'success', steps: 2, text: 'Refund approved.' });
    expect(task.seen[1]?.humanAnswer).toBe('Approve');
    expect(outcome.trace[0]?.human).toEqual({ question: task.asked[0], answer: 'Approve', waitedMs: 60_000, timedOut: false });
  });

  it("with onHumanTimeout 'continue' the run goes on, told that nobody answered", async () => {
    const task = businessDecisionTask(undefined, { humanTimeoutMs: 120_000, onHumanTimeout: 'continue' });
    const outcome = await run(task.options);
    expect(task.seen[1]?.unanswered).toEqual({ question: task.asked[0], waitedMs: 120_000 });
    expect(task.seen[1]?.humanAnswer).toBeUndefined();
    expect(outcome).toMatchObject({ exit: 'gave_up', steps: 2 });
  });

  it('a tool that answers "ok" with no progress ends at the step limit, with the wrap-up answer', async () => {
    const task = okToolTask(6);
    const outcome = await run(task.options);
    expect(outcome).toMatchObject({ exit: 'limit', limit: 'steps', key: 'maxSteps', source: 'budget', used: 6, max: 6, steps: 6 });
    expect(stopReasonOf(outcome)).toBe('limit:steps');
    expect(task.seen.map((s) => s.wrapUp)).toEqual([false, false, false, false, false, true]);
    expect(task.seen.map((s) => s.remaining.maxSteps)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(task.toolCalls).toHaveLength(5);
    if (outcome.exit !== 'limit') return;
    expect(outcome.finalAnswer).toMatch(/^Final answer: the sync tool said "ok" 5 times/);
    expect(outcome.text).toBe(outcome.finalAnswer);
    expect(outcome.trace).toHaveLength(6);
  });

  it('a tool that throws ends in failed with the error, keeping the steps, usage and trace', async () => {
    const task = throwingToolTask();
    const outcome = await run(task.options);
    expect(outcome.exit).toBe('failed');
    if (outcome.exit !== 'failed') return;
    expect(outcome.error).toEqual({ name: 'Error', message: "readFile: EACCES: permission denied, open 'data/ledger.csv'", during: 'turn' });
    expect(outcome.cause).toBeInstanceOf(Error);
    expect(outcome.steps).toBe(2);
    expect(outcome.text).toBe('Read 120 rows.');
    expect(outcome.usage).toMatchObject({ steps: 2, inputTokens: 1_200, wallClockMs: 2 * MODEL_CALL_MS });
    expect(outcome.trace).toHaveLength(2);
    expect(outcome.trace[1]).toMatchObject({ step: 2, error: expect.stringContaining('EACCES') });
    expectJsonSafe(outcome);
  });
});

describe('runAgentLoop: budget', () => {
  it('stops at the wall-clock limit, checked before each turn (fake clock)', async () => {
    const turns: number[] = [];
    const outcome = await run({
      limits: { maxWallClockMs: 10_000 },
      turn: async (state) => {
        turns.push(state.step);
        await new Promise((resolve) => setTimeout(resolve, 4_000));
        return { text: `step ${state.step}` };
      },
      verify: () => ({ ok: true }),
    });
    expect(outcome).toMatchObject({ exit: 'limit', limit: 'wall_clock', key: 'maxWallClockMs', used: 12_000, max: 10_000, steps: 3 });
    expect(turns).toEqual([1, 2, 3]);
  });

  it('projects the per-turn use to flag the wrap-up before a time, token or cost limit', async () => {
    const wrapUps: boolean[] = [];
    const outcome = await run({
      limits: { maxCost: 1 },
      turn: (state) => {
        wrapUps.push(state.wrapUp);
        return { usage: { cost: 0.3 }, text: state.wrapUp ? 'summary' : 'working' };
      },
      verify: () => ({ ok: true }),
    });
    expect(wrapUps).toEqual([false, false, false, true]);
    expect(outcome).toMatchObject({ exit: 'limit', limit: 'cost', finalAnswer: 'summary' });
  });

  it.each([
    [{ maxInputTokens: 100 }, 'tokens'],
    [{ maxTotalTokens: 150 }, 'tokens'],
    [{ maxCost: 0.02 }, 'cost'],
    [{ maxToolErrors: 2 }, 'tool_errors'],
  ] as const)('stops at %j with limit %s', async (limits, limit) => {
    let calls = 0;
    const outcome = await run({
      limits,
      turn: () => {
        calls += 1;
        return { usage: { inputTokens: 60, outputTokens: 20, cost: 0.01 }, toolErrors: 1 };
      },
      verify: () => ({ ok: true }),
    });
    expect(outcome).toMatchObject({ exit: 'limit', limit, source: 'budget' });
    expect(calls).toBe(outcome.steps);
  });

  it('never runs a turn when the budget is already spent', async () => {
    const turn = vi.fn(() => ({}));
    const outcome = await run({ limits: { maxSteps: 0 }, turn, verify: () => ({ ok: true }) });
    expect(turn).not.toHaveBeenCalled();
    expect(outcome).toMatchObject({ exit: 'limit', limit: 'steps', steps: 0, text: '', trace: [] });
  });

  it('uses the injected clock', async () => {
    let t = 1_000;
    const outcome = await runAgentLoop({
      limits: { maxWallClockMs: 50 },
      now: () => t,
      turn: () => {
        t += 20;
        return {};
      },
      verify: () => ({ ok: true }),
    });
    expect(outcome).toMatchObject({ exit: 'limit', limit: 'wall_clock', used: 60, steps: 3 });
    expect(outcome.trace.map((r) => r.ms)).toEqual([20, 20, 20]);
  });
});

describe('runAgentLoop: halts from a provider mapper', () => {
  const halt = (result: TurnResult) =>
    run({ limits: { maxSteps: 5 }, turn: () => ({ usage: { inputTokens: 10, outputTokens: 5 }, ...result }), verify: () => ({ ok: true }) });

  it('out_of_budget ends at a provider limit, with max null', async () => {
    expect(await halt({ halt: { kind: 'out_of_budget', limit: 'tokens' } })).toMatchObject({
      exit: 'limit',
      limit: 'tokens',
      source: 'provider',
      used: 15,
      max: null,
    });
  });

  it('blocked ends as gave_up with the reason, failed as failed, done is verified', async () => {
    expect(await halt({ halt: { kind: 'blocked', reason: 'model refused' } })).toMatchObject({ exit: 'gave_up', note: 'model refused' });
    expect(await halt({ halt: { kind: 'failed', error: 'unexpected stop_reason null' } })).toMatchObject({
      exit: 'failed',
      error: { name: 'ProviderStopError', message: 'unexpected stop_reason null', during: 'turn' },
    });
    const done = await halt({ halt: { kind: 'done', summary: 'fixed' } });
    expect(done).toMatchObject({ exit: 'success', note: 'fixed' });
    expect(done.trace[0]).toMatchObject({ halt: { kind: 'done', summary: 'fixed' }, verification: { ok: true } });
  });

  it('need_help without askHuman ends at once with waitedMs 0', async () => {
    expect(await halt({ halt: { kind: 'need_help', question: 'Which account?' } })).toMatchObject({
      exit: 'need_help',
      question: 'Which account?',
      waitedMs: 0,
    });
  });
});

describe('runAgentLoop: errors never become success', () => {
  const base = { limits: { maxSteps: 5 } };

  it.each([
    ['verify throws', { turn: () => ({ signal: { kind: 'done', note: '' } }), verify: () => { throw new Error('test runner crashed'); } }, 'verify', 'test runner crashed'],
    ['verify resolves garbage', { turn: () => ({ signal: { kind: 'done', note: '' } }), verify: () => ({ ok: 'yes' }) }, 'verify', 'verify must resolve'],
    ['an invalid signal', { turn: () => ({ signal: { kind: 'done!', note: 'x' } }), verify: () => ({ ok: true }) }, 'turn', 'invalid finish signal: kind'],
    ['a give_up without a note', { turn: () => ({ signal: { kind: 'give_up', note: ' ' } }), verify: () => ({ ok: true }) }, 'turn', 'note'],
    ['negative usage', { turn: () => ({ usage: { cost: -1 } }), verify: () => ({ ok: true }) }, 'turn', 'usage.cost'],
    ['a misspelt usage key', { turn: () => ({ usage: { inputTokens: 10, costUsd: 0.5 } }), verify: () => ({ ok: true }) }, 'turn', 'turn usage has an unknown key "costUsd": did you mean cost? The keys are inputTokens, outputTokens, cost'],
    ['an unknown usage key', { turn: () => ({ usage: { latencyMs: 12 } }), verify: () => ({ ok: true }) }, 'turn', 'turn usage has an unknown key "latencyMs": the keys are inputTokens, outputTokens, cost'],
    ['usage as an array', { turn: () => ({ usage: [] }), verify: () => ({ ok: true }) }, 'turn', 'turn usage must be an object'],
    ['a turn resolving nothing', { turn: () => undefined, verify: () => ({ ok: true }) }, 'turn', 'turn must resolve to an object'],
    ['a turn rejecting a string', { turn: () => Promise.reject('boom'), verify: () => ({ ok: true }) }, 'turn', 'boom'],
    ['signal and halt together', { turn: () => ({ signal: { kind: 'done', note: '' }, halt: { kind: 'done', summary: '' } }), verify: () => ({ ok: true }) }, 'turn', 'both'],
    ['an invalid halt', { turn: () => ({ halt: { kind: 'finished' } }), verify: () => ({ ok: true }) }, 'turn', 'invalid halt'],
    ['askHuman resolving a number', { turn: () => ({ signal: { kind: 'need_help', note: 'why?' } }), verify: () => ({ ok: true }), askHuman: () => 42 }, 'askHuman', 'askHuman must resolve to a string'],
    ['askHuman throwing', { turn: () => ({ signal: { kind: 'need_help', note: 'why?' } }), verify: () => ({ ok: true }), askHuman: () => { throw new Error('pager down'); } }, 'askHuman', 'pager down'],
  ])('%s ends as failed', async (_name, callbacks, during, message) => {
    const outcome = await run({ ...base, ...(callbacks as unknown as Pick<RunAgentLoopOptions, 'turn' | 'verify'>) });
    expect(outcome.exit).toBe('failed');
    if (outcome.exit !== 'failed') return;
    expect(outcome.error.during).toBe(during);
    expect(outcome.error.message).toContain(message);
    expect(outcome.steps).toBe(1);
    expect(outcome.trace).toHaveLength(1);
  });

  it('stops on cost only when turns report cost: a misspelt key ends the run instead of being ignored', async () => {
    const turn = (cost: Record<string, number>) => () => ({ usage: { inputTokens: 1_000, ...cost } });
    const counted = await run({ limits: { maxSteps: 50, maxCost: 1 }, turn: turn({ cost: 0.3 }), verify: () => ({ ok: true }) });
    expect(stopReasonOf(counted)).toBe('limit:cost');
    expect(counted.steps).toBe(4);
    const misspelt = await run({ limits: { maxSteps: 50, maxCost: 1 }, turn: turn({ cost_usd: 0.3 }), verify: () => ({ ok: true }) });
    expect(misspelt).toMatchObject({ exit: 'failed', steps: 1, error: { during: 'turn' } });
    if (misspelt.exit === 'failed') expect(misspelt.error.message).toContain('"cost_usd": did you mean cost?');
  });

  it('rejects misuse before the first turn', async () => {
    const turn = vi.fn(() => ({}));
    const verify = () => ({ ok: true as const });
    await expect(runAgentLoop({ limits: { maxSteps: -1 }, turn, verify })).rejects.toThrow(/limits\.maxSteps/);
    await expect(runAgentLoop({ limits: {}, turn, verify, wrapUpSteps: 1.5 })).rejects.toThrow(/wrapUpSteps/);
    await expect(runAgentLoop({ limits: {}, turn, verify, humanTimeoutMs: -5 })).rejects.toThrow(/humanTimeoutMs/);
    await expect(runAgentLoop({ limits: {}, turn, verify, onHumanTimeout: 'wait' as 'stop' })).rejects.toThrow(/onHumanTimeout/);
    await expect(runAgentLoop({ limits: {}, turn, verify: undefined as never })).rejects.toThrow(/verify/);
    expect(turn).not.toHaveBeenCalled();
  });
});

describe('runAgentLoop: the caller\'s AbortSignal', () => {
  it('ends as failed with an AbortError in the middle of a turn, keeping the state', async () => {
    const controller = new AbortController();
    let turnSignal: AbortSignal | undefined;
    const outcome = runAgentLoop({
      limits: { maxSteps: 10 },
      signal: controller.signal,
      turn: async (state, { signal }) => {
        turnSignal = signal;
        if (state.step === 3) setTimeout(() => controller.abort(new Error('user pressed stop')), 100);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        return { text: `step ${state.step}`, usage: { outputTokens: 10 } };
      },
      verify: () => ({ ok: true }),
    });
    await vi.runAllTimersAsync();
    const result = await outcome;
    expect(result).toMatchObject({ exit: 'failed', error: { name: 'AbortError', message: 'the run was aborted: user pressed stop', during: 'turn' } });
    expect(result.steps).toBe(3);
    expect(result.text).toBe('step 2');
    expect(result.usage.outputTokens).toBe(20);
    expect(turnSignal?.aborted).toBe(true);
  });

  it('does not start when already aborted, and aborts a wait for a person', async () => {
    const turn = vi.fn(() => ({}));
    const aborted = AbortSignal.abort();
    expect(await run({ limits: {}, signal: aborted, turn, verify: () => ({ ok: true }) })).toMatchObject({ exit: 'failed', steps: 0, error: { name: 'AbortError' } });
    expect(turn).not.toHaveBeenCalled();

    const controller = new AbortController();
    let humanSignal: AbortSignal | undefined;
    const outcome = runAgentLoop({
      limits: {},
      signal: controller.signal,
      turn: () => ({ signal: { kind: 'need_help', note: 'Which region?' } }),
      verify: () => ({ ok: true }),
      askHuman: (_question, { signal }) => {
        humanSignal = signal;
        setTimeout(() => controller.abort(), 5_000);
        return new Promise<string>(() => {});
      },
    });
    await vi.runAllTimersAsync();
    expect(await outcome).toMatchObject({ exit: 'failed', error: { name: 'AbortError', during: 'askHuman' }, steps: 1 });
    expect(humanSignal?.aborted).toBe(true);
  });

  it('caps the wait for a person at the wall-clock time left', async () => {
    const outcome = await run({
      limits: { maxWallClockMs: 30_000 },
      humanTimeoutMs: 600_000,
      turn: async () => {
        await new Promise((resolve) => setTimeout(resolve, 10_000));
        return { signal: { kind: 'need_help', note: 'Which region?' } };
      },
      verify: () => ({ ok: true }),
      askHuman: (_question, { signal }) => new Promise<string>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    });
    expect(outcome).toMatchObject({ exit: 'need_help', waitedMs: 20_000 });
  });
});
