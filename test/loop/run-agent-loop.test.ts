import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createStopPolicy,
  parseStopPolicy,
  runAgentLoop,
  seedStopPolicy,
  stopReasonOf,
  type BudgetLimits,
  type RunAgentLoopOptions,
  type StopDecision,
  type StopEvent,
  type StopOutcome,
  type TestEvidence,
  type TurnResult,
  type TurnState,
} from '../../src/index.js';
import { DecisionModelError } from '../../src/decision-model/decision-model-error.js';
import { createScriptedClient } from '../../src/testing/scripted-client.js';
import { runAgentLoop as baselineRunAgentLoop, type LoopStop, type RunAgentLoopOptions as BaselineOptions } from './run-agent-loop-baseline.js';
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

describe('runAgentLoop: what a provider mapper says of a turn', () => {
  const turnSaying = (result: TurnResult, limits: BudgetLimits = { maxSteps: 5 }) =>
    run({ limits, turn: () => ({ usage: { inputTokens: 10, outputTokens: 5 }, text: 'partial', ...result }), verify: () => ({ ok: true }) });

  it("ends at the provider's own token or step limit, with max null", async () => {
    expect(await turnSaying({ provider: { stop: 'token_limit' } })).toMatchObject({
      exit: 'limit',
      limit: 'tokens',
      source: 'provider',
      used: 15,
      max: null,
      decision: { rule: 'provider_limit' },
    });
    const steps = await turnSaying({ provider: { stop: 'step_limit' } });
    expect(steps).toMatchObject({ exit: 'limit', limit: 'steps', source: 'provider', used: 1, max: null });
    expect(steps.trace[0]).toMatchObject({ provider: 'step_limit', decision: { kind: 'stop', rule: 'provider_limit', reason: 'provider_limit' } });
  });

  it('keeps the text of a wrap-up turn that the provider cut short as the final answer', async () => {
    expect(await turnSaying({ provider: { stop: 'token_limit' } }, { maxSteps: 1 })).toMatchObject({ exit: 'limit', source: 'provider', finalAnswer: 'partial' });
  });

  it('ends a generation that could not be read as failed, with the provider detail, before a signal it carries', async () => {
    expect(await turnSaying({ provider: { stop: 'failed', detail: 'unexpected stop_reason null' }, signal: { kind: 'done', note: 'x' } })).toMatchObject({
      exit: 'failed',
      error: { name: 'ProviderStopError', message: 'unexpected stop_reason null', during: 'turn' },
      decision: { rule: 'provider_failed' },
    });
  });

  it('takes a refusal (give_up) as gave_up with its note, and a done as a claim to verify', async () => {
    expect(await turnSaying({ signal: { kind: 'give_up', note: 'model refused (cyber: not allowed)' } })).toMatchObject({ exit: 'gave_up', note: 'model refused (cyber: not allowed)' });
    const done = await turnSaying({ signal: { kind: 'done', note: 'fixed' } });
    expect(done).toMatchObject({ exit: 'success', note: 'fixed' });
    expect(done.trace[0]).toMatchObject({ signal: { kind: 'done', note: 'fixed' }, verification: { ok: true } });
  });

  it('refuses a provider stop it does not know', async () => {
    expect(await turnSaying({ provider: { stop: 'length' } as never })).toMatchObject({
      exit: 'failed',
      error: { during: 'turn', message: expect.stringContaining("turn returned an invalid provider stop: {\"stop\":\"length\"}") },
    });
  });

  it('need_help without askHuman ends at once with waitedMs 0', async () => {
    expect(await turnSaying({ signal: { kind: 'need_help', note: 'Which account?' } })).toMatchObject({
      exit: 'need_help',
      question: 'Which account?',
      waitedMs: 0,
    });
  });
});

describe('runAgentLoop: the event of step 0', () => {
  it('ends before the first turn when the budget is already spent, telling onDecision', async () => {
    const events: StopEvent[] = [];
    let turns = 0;
    const outcome = await runAgentLoop({
      limits: { maxSteps: 0 },
      turn: () => {
        turns++;
        return {};
      },
      verify: () => ({ ok: true }),
      onDecision: (_decision, event) => void events.push(event),
    });
    expect(turns).toBe(0);
    expect(outcome).toMatchObject({ exit: 'limit', limit: 'steps', key: 'maxSteps', used: 0, max: 0, steps: 0, trace: [], decision: { rule: 'maxSteps' } });
    expect(events).toEqual([{ step: 0, elapsedMs: 0 }]);
  });

  it('runs the first turn when step 0 leaves room for one, deciding the first event afresh', async () => {
    const events: StopEvent[] = [];
    const outcome = await runAgentLoop({
      limits: { maxSteps: 1 },
      turn: () => ({ text: 'one' }),
      verify: () => ({ ok: true }),
      onDecision: (_decision, event) => void events.push(event),
    });
    expect(outcome).toMatchObject({ exit: 'limit', steps: 1 });
    expect(events.map((event) => event.step)).toEqual([1]);
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
    ['an invalid provider stop', { turn: () => ({ provider: { stop: 'finished' } }), verify: () => ({ ok: true }) }, 'turn', 'invalid provider stop'],
    ['a provider detail that is not text', { turn: () => ({ provider: { stop: 'failed', detail: 5 } }), verify: () => ({ ok: true }) }, 'turn', 'invalid provider stop'],
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

const GREEN: TestEvidence = { passed: true, failed: [], ran: 8 };
const RED: TestEvidence = { passed: false, failed: ['pages.last'], ran: 8 };
const NONE: TestEvidence = { passed: false, failed: [], ran: 0 };
const SURE = { acceptanceCovered: 0.9, noOpenQuestions: 0.9 };

const looping = parseStopPolicy({
  version: 2,
  rules: [
    { id: 'cap', when: { limit: { of: 'steps', max: 20 } }, then: { kind: 'stop', exit: 'limit', reason: 'cap' } },
    { id: 'looping', when: { stall: { detector: 'step_history', patterns: ['repeated-result'] } }, then: { kind: 'stop', exit: 'need_help', reason: 'looping' } },
  ],
});

describe('runAgentLoop with a policy', () => {
  beforeEach(() => {
    vi.useRealTimers();
  });

  it('stops on a step_history stall over the tool steps the turns return, naming the rule and the pattern', async () => {
    const outcome = await runAgentLoop({
      policy: looping,
      now: () => 0,
      turn: () => ({ text: 'checking the job', steps: [{ tool: 'status', input: { id: 7 }, output: 'pending', error: false }] }),
    });
    expect(outcome).toMatchObject({ exit: 'need_help', steps: 4, waitedMs: 0, decision: { rule: 'looping', values: { stallPattern: 'repeated-result' } } });
    if (outcome.exit === 'need_help') expect(outcome.question).toMatch(/^stop \(need_help\) at step 4 by rule looping: /);
  });

  it('asks the decision model only when needsJudgement says so, about the turn just completed, and counts each call', async () => {
    const evidence = [NONE, NONE, GREEN];
    const events: StopEvent[] = [];
    const client = createScriptedClient([SURE]);
    const outcome = await runAgentLoop({
      policy: seedStopPolicy(),
      client,
      task: 'Paginate the list',
      acceptance: ['the last page is reachable'],
      now: () => 0,
      turn: (state) => ({ text: `step ${state.step}`, tests: evidence[state.step - 1] as TestEvidence }),
      onDecision: (_decision, event) => void events.push(event),
    });
    expect(client.calls).toHaveLength(1);
    expect(client.calls[0]?.state).toEqual({ task: 'Paginate the list', output: 'step 3', acceptance: ['the last page is reachable'], tests: { passed: true, ran: 8, failed: [] } });
    expect(Object.keys(client.calls[0]?.questions ?? {})).toEqual(['acceptanceCovered', 'noOpenQuestions']);
    expect(events.map((event) => event.usage?.decisionModelCalls)).toEqual([undefined, undefined, 1]);
    expect(events[2]?.probabilities).toEqual(SURE);
    expect(outcome).toMatchObject({ exit: 'success', steps: 3, note: '', decision: { rule: 'tests_and_criteria_passed' } });
  });

  it("hands a retry's feedback to the next turn", async () => {
    const seen: TurnState[] = [];
    const decisions: StopDecision[] = [];
    await runAgentLoop({
      policy: seedStopPolicy(createStopPolicy({ maxSteps: 2 })),
      now: () => 0,
      turn: (state) => {
        seen.push(state);
        return { text: `attempt ${state.step}`, tests: RED };
      },
      client: createScriptedClient(() => ({ acceptanceCovered: 0.2, noOpenQuestions: 0.9 })),
      onDecision: (decision) => void decisions.push(decision),
    });
    expect(decisions.map((d) => [d.kind, d.rule])).toEqual([
      ['retry', 'tests_failed'],
      ['stop', 'hard_cap'],
    ]);
    expect(seen[0]?.feedback).toBeUndefined();
    expect(seen[1]?.feedback).toEqual({
      message: '1 test failed: pages.last. Fix it and run the tests again before you finish.',
      failedTests: ['pages.last'],
      unmetCriteria: ['acceptanceCovered'],
    });
  });

  it('needs no verify: a done is an event the rules read with the rest of the evidence', async () => {
    const policy = parseStopPolicy({
      version: 2,
      rules: [
        { id: 'cap', when: { limit: { of: 'steps', max: 5 } }, then: { kind: 'stop', exit: 'limit', reason: 'cap' } },
        { id: 'done', when: { all: [{ signal: 'done' }, { tests: 'passed' }] }, then: { kind: 'stop', exit: 'success', reason: 'done_and_green' } },
      ],
    });
    const tests = [RED, GREEN];
    const outcome = await runAgentLoop({
      policy,
      now: () => 0,
      turn: (state) => ({ signal: { kind: 'done', note: `claim ${state.step}` }, tests: tests[state.step - 1] as TestEvidence }),
    });
    expect(outcome).toMatchObject({ exit: 'success', steps: 2, note: 'claim 2', decision: { rule: 'done' } });
  });

  it("ends before the first turn when the policy's budget is already spent", async () => {
    const policy = parseStopPolicy({
      version: 2,
      rules: [{ id: 'free', when: { limit: { of: 'cost', max: 0 } }, then: { kind: 'stop', exit: 'limit', reason: 'free' } }],
    });
    let turns = 0;
    const outcome = await runAgentLoop({ policy, now: () => 0, turn: () => ({ usage: { cost: (turns += 1) } }) });
    expect(turns).toBe(0);
    expect(outcome).toMatchObject({ exit: 'limit', limit: 'cost', key: 'maxCost', used: 0, max: 0, steps: 0 });
  });

  it('rejects misuse before the first turn', async () => {
    const turn = () => ({});
    await expect(runAgentLoop({ policy: looping, limits: { maxSteps: 3 }, turn })).rejects.toThrow(/give limits or a policy, not both/);
    await expect(runAgentLoop({ policy: seedStopPolicy(), turn })).rejects.toThrow(/the run needs a decision model to ask: pass client/);
    await expect(runAgentLoop({ policy: { version: 2, rules: [] } as never, turn })).rejects.toThrow(/rules/);
    await expect(runAgentLoop({ policy: looping, turn, client: { evaluate: 'yes' } as never })).rejects.toThrow(/client must be a DecisionModelClient/);
  });

  it('ends as failed, never as a decision, when the decision model or a turn report is broken', async () => {
    const modelDown = await runAgentLoop({
      policy: seedStopPolicy(),
      now: () => 0,
      turn: () => ({ tests: GREEN }),
      client: createScriptedClient([new DecisionModelError('server', 'decision model unavailable')]),
    });
    expect(modelDown).toMatchObject({ exit: 'failed', steps: 1, error: { name: 'DecisionModelError', during: 'decisionModel', message: 'decision model unavailable' } });
    expect(modelDown.decision).toBeUndefined();
    const badAnswer = await runAgentLoop({ policy: seedStopPolicy(), now: () => 0, turn: () => ({ tests: GREEN }), client: createScriptedClient([{ acceptanceCovered: 0.9 }]) });
    expect(badAnswer).toMatchObject({ exit: 'failed', error: { during: 'decisionModel', message: expect.stringContaining('noOpenQuestions') } });
    const badStep = await runAgentLoop({ policy: looping, now: () => 0, turn: () => ({ steps: [{ tool: 'x', exitCode: 1.5 }] }) });
    expect(badStep).toMatchObject({ exit: 'failed', error: { during: 'turn', message: expect.stringContaining('event.steps[0].exitCode') } });
    const badTests = await runAgentLoop({ policy: looping, now: () => 0, turn: () => ({ tests: { passed: true } as never }) });
    expect(badTests).toMatchObject({ exit: 'failed', error: { during: 'turn' } });
  });
});

/** One scripted turn: what it used, how long it took on the injected clock, and what it said. */
interface ScriptedTurn {
  readonly ms: number;
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number; readonly cost: number };
  readonly toolErrors: number;
  readonly text: string | undefined;
  readonly intent: TurnResult['signal'] | { readonly halt: LoopStop } | undefined;
  readonly verified: boolean;
  readonly human: 'answer' | 'timeout';
}

interface Script {
  readonly limits: BudgetLimits;
  readonly turns: readonly ScriptedTurn[];
  readonly askHuman: boolean;
  readonly onHumanTimeout: 'stop' | 'continue';
  readonly wrapUpSteps: number;
}

const intent = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  fc.constant({ kind: 'done' as const, note: 'finished' }),
  fc.constant({ kind: 'give_up' as const, note: 'the portal is down' }),
  fc.constant({ kind: 'need_help' as const, note: 'which account?' }),
  fc.constantFrom(
    { halt: { kind: 'out_of_budget' as const, limit: 'tokens' as const } },
    { halt: { kind: 'failed' as const, error: 'unknown stop reason' } },
    { halt: { kind: 'blocked' as const, reason: 'model refused' } },
    { halt: { kind: 'need_help' as const, question: 'which region?' } },
    { halt: { kind: 'done' as const, summary: 'fixed' } },
  ),
);

const turn: fc.Arbitrary<ScriptedTurn> = fc.record({
  ms: fc.integer({ min: 0, max: 30 }),
  usage: fc.record({ inputTokens: fc.integer({ min: 0, max: 120 }), outputTokens: fc.integer({ min: 0, max: 60 }), cost: fc.constantFrom(0, 0.1, 0.25, 0.3, 0.7) }),
  toolErrors: fc.integer({ min: 0, max: 2 }),
  text: fc.option(fc.constantFrom('working', 'same', 'summary'), { nil: undefined }),
  intent,
  verified: fc.boolean(),
  human: fc.constantFrom('answer' as const, 'timeout' as const),
});

const limits: fc.Arbitrary<BudgetLimits> = fc.record(
  {
    maxSteps: fc.oneof(fc.integer({ min: 0, max: 8 }), fc.constantFrom(2.5, Infinity)),
    maxWallClockMs: fc.integer({ min: 0, max: 120 }),
    maxInputTokens: fc.integer({ min: 0, max: 400 }),
    maxOutputTokens: fc.integer({ min: 0, max: 200 }),
    maxTotalTokens: fc.integer({ min: 0, max: 500 }),
    maxCost: fc.constantFrom(0, 0.5, 1, 1.5),
    maxToolErrors: fc.integer({ min: 0, max: 4 }),
  },
  { requiredKeys: [] },
);

const script: fc.Arbitrary<Script> = fc.record({
  limits,
  turns: fc.array(turn, { minLength: 1, maxLength: 10 }),
  askHuman: fc.boolean(),
  onHumanTimeout: fc.constantFrom('stop' as const, 'continue' as const),
  wrapUpSteps: fc.integer({ min: 0, max: 2 }),
});

/** A halt of the baseline as a turn reports it now: the finish signal it stands for, or the provider's own stop. */
function asTurnResult(halt: LoopStop): Pick<TurnResult, 'signal' | 'provider'> {
  switch (halt.kind) {
    case 'done':
      return { signal: { kind: 'done', note: halt.summary } };
    case 'blocked':
      return { signal: { kind: 'give_up', note: halt.reason } };
    case 'need_help':
      return { signal: { kind: 'need_help', note: halt.question } };
    case 'out_of_budget':
      return { provider: { stop: halt.limit === 'steps' ? 'step_limit' : 'token_limit' } };
    case 'failed':
      return { provider: { stop: 'failed', detail: halt.error } };
  }
}

/** The options of one run of a script; every call builds fresh callbacks, so both loops see the same script. */
function optionsOf(s: Script, baseline: boolean): RunAgentLoopOptions {
  let t = 0;
  let current: ScriptedTurn | undefined;
  return {
    limits: s.limits,
    now: () => t,
    humanTimeoutMs: 0,
    onHumanTimeout: s.onHumanTimeout,
    wrapUpSteps: s.wrapUpSteps,
    turn: (state) => {
      // Past the script, the model gives up: every run ends.
      current = s.turns[state.step - 1];
      if (current === undefined) return { signal: { kind: 'give_up', note: 'out of script' } };
      t += current.ms;
      const intent = current.intent;
      const said = intent === undefined ? {} : 'halt' in intent ? (baseline ? { halt: intent.halt } : asTurnResult(intent.halt)) : { signal: intent };
      return { usage: current.usage, toolErrors: current.toolErrors, ...(current.text === undefined ? {} : { text: current.text }), ...said } as TurnResult;
    },
    verify: () => (current?.verified === false ? { ok: false, unmet: ['tests pass'] } : { ok: true }),
    ...(s.askHuman ? { askHuman: () => (current?.human === 'timeout' ? new Promise<string>(() => {}) : 'yes') } : {}),
  };
}

/**
 * The outcome as both loops give it: without what only the engine-run loop records (the deciding rule), a turn's
 * halt or provider stop written as the signal it stands for, and the thrown value as plain data (a provider's
 * failure, which the baseline threw and the engine decides, has none). A provider's limit on a wrap-up turn now
 * keeps that turn's text as the final answer, as a budget limit does; the baseline dropped it.
 */
function comparable(outcome: StopOutcome): unknown {
  const { decision: _decision, ...rest } = outcome as StopOutcome & { cause?: unknown };
  const cause = (rest as { cause?: unknown }).cause;
  const providerFailure = rest.exit === 'failed' && rest.error.name === 'ProviderStopError';
  const { cause: _cause, ...withoutCause } = rest as typeof rest & { cause?: unknown };
  if (withoutCause.exit === 'limit' && withoutCause.source === 'provider') delete (withoutCause as { finalAnswer?: string }).finalAnswer;
  return {
    ...withoutCause,
    ...(cause instanceof Error && !providerFailure ? { cause: { name: cause.name, message: cause.message } } : {}),
    trace: rest.trace.map(({ decision: _d, ...record }) => {
      const { halt, provider, signal, ...others } = record as typeof record & { halt?: LoopStop };
      const said = halt !== undefined ? asTurnResult(halt) : { ...(signal === undefined ? {} : { signal }), ...(provider === undefined ? {} : { provider: { stop: provider } }) };
      const stop = said.provider === undefined ? {} : { provider: said.provider.stop };
      return { ...others, ...(said.signal === undefined ? {} : { signal: said.signal }), ...stop };
    }),
  };
}

describe('runAgentLoop with limits decides as it did before the stop engine', () => {
  // A person who never answers waits for the real timer of humanTimeoutMs 0.
  beforeEach(() => {
    vi.useRealTimers();
  });

  it('gives the same outcome, trace and usage as the baseline on random scripts', async () => {
    await fc.assert(
      fc.asyncProperty(script, async (s) => {
        const [now, before] = await Promise.all([runAgentLoop(optionsOf(s, false)), baselineRunAgentLoop(optionsOf(s, true) as BaselineOptions)]);
        expect(comparable(now)).toEqual(comparable(before));
      }),
      // Each script runs both loops through up to ten turns, with every kind of limit, halt and human answer drawn.
      { numRuns: 600 },
    );
  }, 120_000);

  it('names the deciding rule on every exit the policy decided, and on each turn record', async () => {
    const outcome = await runAgentLoop({
      limits: { maxSteps: 3 },
      turn: () => ({ text: 'working' }),
      verify: () => ({ ok: true }),
    });
    expect(outcome).toMatchObject({ exit: 'limit', limit: 'steps', key: 'maxSteps', used: 3, max: 3, decision: { kind: 'stop', exit: 'limit', rule: 'maxSteps', reason: 'maxSteps' } });
    expect(outcome.trace.map((record) => record.decision)).toEqual([
      { kind: 'continue', rule: null, reason: 'no_rule_fired' },
      { kind: 'continue', rule: null, reason: 'no_rule_fired' },
      { kind: 'stop', rule: 'maxSteps', reason: 'maxSteps' },
    ]);
  });
});
