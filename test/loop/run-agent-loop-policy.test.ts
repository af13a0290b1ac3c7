import { describe, expect, it } from 'vitest';
import {
  createStopPolicy,
  parseStopPolicy,
  runAgentLoop,
  seedStopPolicy,
  type StopDecision,
  type StopEvent,
  type TestEvidence,
  type TurnState,
} from '../../src/index.js';

const GREEN: TestEvidence = { passed: true, failed: [], ran: 8 };
const RED: TestEvidence = { passed: false, failed: ['pages.last'], ran: 8 };
const NONE: TestEvidence = { passed: false, failed: [], ran: 0 };
const SURE = { acceptanceCovered: 0.9, noOpenQuestions: 0.9 };

const looping = parseStopPolicy({
  version: 1,
  rules: [
    { id: 'cap', when: { limit: { of: 'steps', max: 20 } }, then: { kind: 'stop', exit: 'limit', reason: 'cap' } },
    { id: 'looping', when: { stall: { detector: 'step_history', patterns: ['repeated-result'] } }, then: { kind: 'stop', exit: 'need_help', reason: 'looping' } },
  ],
});

describe('runAgentLoop with a policy', () => {
  it('stops on a step_history stall over the tool steps the turns return, naming the rule and the pattern', async () => {
    const outcome = await runAgentLoop({
      policy: looping,
      now: () => 0,
      turn: () => ({ text: 'checking the job', steps: [{ tool: 'status', input: { id: 7 }, output: 'pending', error: false }] }),
    });
    expect(outcome).toMatchObject({ exit: 'need_help', steps: 4, waitedMs: 0, decision: { rule: 'looping', values: { stallPattern: 'repeated-result' } } });
    if (outcome.exit === 'need_help') expect(outcome.question).toMatch(/^stop \(need_help: looping\) at step 4 by rule looping/);
  });

  it('asks the decision model only when needsJudgement says so, and counts each call', async () => {
    const evidence = [NONE, NONE, GREEN];
    const asked: number[] = [];
    const events: StopEvent[] = [];
    const outcome = await runAgentLoop({
      policy: seedStopPolicy(),
      now: () => 0,
      turn: (state) => ({ text: `step ${state.step}`, tests: evidence[state.step - 1] as TestEvidence }),
      evaluateCriteria: (request) => {
        asked.push(request.step);
        expect(request.tests).toEqual(GREEN);
        expect(request.event.probabilities).toBeUndefined();
        return SURE;
      },
      onDecision: (_decision, event) => void events.push(event),
    });
    expect(asked).toEqual([3]);
    expect(events.map((event) => event.usage?.decisionModelCalls)).toEqual([undefined, undefined, 1]);
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
      evaluateCriteria: () => ({ acceptanceCovered: 0.2 }),
      onDecision: (decision) => void decisions.push(decision),
    });
    expect(decisions.map((d) => [d.kind, d.rule])).toEqual([
      ['retry', 'tests_failed'],
      ['stop', 'hard_cap'],
    ]);
    expect(seen[0]?.feedback).toBeUndefined();
    expect(seen[1]?.feedback).toMatchObject({ failedTests: ['pages.last'], message: expect.stringContaining('1 test failed: pages.last') });
  });

  it('needs no verify: a done is an event the rules read with the rest of the evidence', async () => {
    const policy = parseStopPolicy({
      version: 1,
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
      version: 1,
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
    await expect(runAgentLoop({ policy: seedStopPolicy(), turn })).rejects.toThrow(/needs evaluateCriteria/);
    await expect(runAgentLoop({ policy: { version: 1, rules: [] } as never, turn })).rejects.toThrow(/rules/);
    await expect(runAgentLoop({ policy: looping, turn, evaluateCriteria: 'yes' as never })).rejects.toThrow(/evaluateCriteria must be a function/);
  });

  it('ends as failed, never as a decision, when the judge or a turn report is broken', async () => {
    const judgeDown = await runAgentLoop({
      policy: seedStopPolicy(),
      now: () => 0,
      turn: () => ({ tests: GREEN }),
      evaluateCriteria: () => Promise.reject(new Error('judge unavailable')),
    });
    expect(judgeDown).toMatchObject({ exit: 'failed', steps: 1, error: { during: 'evaluateCriteria', message: 'judge unavailable' } });
    expect(judgeDown.decision).toBeUndefined();
    const badStep = await runAgentLoop({ policy: looping, now: () => 0, turn: () => ({ steps: [{ tool: 'x', exitCode: 1.5 }] }) });
    expect(badStep).toMatchObject({ exit: 'failed', error: { during: 'turn', message: expect.stringContaining('event.steps[0].exitCode') } });
    const badTests = await runAgentLoop({ policy: looping, now: () => 0, turn: () => ({ tests: { passed: true } as never }) });
    expect(badTests).toMatchObject({ exit: 'failed', error: { during: 'turn' } });
  });
});
