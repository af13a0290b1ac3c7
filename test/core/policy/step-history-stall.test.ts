import { describe, expect, it } from 'vitest';
import { decide } from '../../../src/core/policy/decide.js';
import { parseStopPolicy } from '../../../src/core/policy/parse-stop-policy.js';
import type { StopEvent } from '../../../src/core/policy/stop-event.js';
import { isStopPolicyError } from '../../../src/core/policy/stop-policy-error.js';
import { initialStopState, type StopState } from '../../../src/core/policy/stop-state.js';
import type { StallStep } from '../../../src/core/stall-detection/stall-step.js';

const policyWith = (stall: unknown) =>
  parseStopPolicy({
    version: 1,
    rules: [
      { id: 'looping', when: { stall }, then: { kind: 'stop', exit: 'need_help', reason: 'looping' } },
      { id: 'red', when: { tests: 'failed' }, then: { kind: 'retry', reason: 'tests_failed' } },
    ],
  });

const RED = { passed: false, failed: ['parser > keeps line numbers'], ran: 12 };
const failingRun: StallStep = { tool: 'bash', input: { command: 'npm test' }, output: '1 failing\n  parser > keeps line numbers: expected 3, got 4', exitCode: 1 };
const edit = (n: number): StallStep => ({ tool: 'edit', input: { path: 'src/parser.ts', text: `attempt ${n}` }, output: 'ok', exitCode: 0 });
const turn = (n: number): readonly StallStep[] => [edit(n), failingRun];

function run(policy: ReturnType<typeof policyWith>, events: readonly StopEvent[]) {
  let state: StopState = initialStopState(policy);
  return events.map((event) => {
    const result = decide(policy, state, event);
    state = result.state;
    return result;
  });
}

describe('the step_history stall detector as a condition', () => {
  it('stops the turns whose failing check gives the same result after every edit, with the finding in the values', () => {
    const policy = policyWith({ detector: 'step_history' });
    const results = run(policy, Array.from({ length: 6 }, (_, i) => ({ step: i + 1, tests: RED, steps: turn(i) })));
    const kinds = results.map((result) => result.decision.rule);
    const first = kinds.indexOf('looping');
    expect(first).toBeGreaterThan(0);
    expect(kinds.slice(0, first).every((rule) => rule === 'red')).toBe(true);
    const decision = results[first]?.decision;
    expect(decision).toMatchObject({ kind: 'stop', exit: 'need_help', values: { stallPattern: expect.any(String), stallMessage: expect.any(String) } });
    expect(results[0]?.decision.trace[0]).toEqual({ rule: 'looping', unmet: { condition: 'stall.step_history', actual: 'no stall in the steps', relation: '' } });
    expect(results[first]?.state.stall).toHaveLength(1);
  });

  it('never stops a polling tool whose output changes', () => {
    const policy = policyWith({ detector: 'step_history', options: { tools: { status: { polling: true } } } });
    const results = run(
      policy,
      Array.from({ length: 30 }, (_, i) => ({ step: i + 1, steps: [{ tool: 'status', input: { job: 7 }, output: `progress ${i * 3}%`, exitCode: 0 }] })),
    );
    expect(results.every((result) => result.decision.rule !== 'looping')).toBe(true);
  });

  it('holds only for the patterns it names', () => {
    const only = policyWith({ detector: 'step_history', patterns: ['monologue'] });
    const results = run(only, Array.from({ length: 6 }, (_, i) => ({ step: i + 1, tests: RED, steps: turn(i) })));
    expect(results.every((result) => result.decision.rule === 'red')).toBe(true);
    const talking = run(only, Array.from({ length: 5 }, (_, i) => ({ step: i + 1, steps: [{ text: `I will now think about it (${i})` }] })));
    expect(talking.some((result) => result.decision.rule === 'looping' && result.decision.values.stallPattern === 'monologue')).toBe(true);
  });

  it('replays the last event without observing its steps twice, and survives a JSON round trip', () => {
    const policy = policyWith({ detector: 'step_history' });
    let state = initialStopState(policy);
    let viaJson = initialStopState(policy);
    for (let i = 0; i < 6; i++) {
      const event: StopEvent = { step: i + 1, tests: RED, steps: turn(i) };
      const result = decide(policy, state, event);
      const again = decide(policy, result.state, event);
      expect(again.state).toBe(result.state);
      expect(again.decision).toEqual(result.decision);
      const round = decide(policy, JSON.parse(JSON.stringify(viaJson)) as StopState, JSON.parse(JSON.stringify(event)) as StopEvent);
      expect(round.decision).toEqual(result.decision);
      state = result.state;
      viaJson = round.state;
    }
    expect(() => decide(policy, state, { step: 6, tests: RED, steps: turn(99) })).toThrow(/different event/);
  });

  it('refuses unknown patterns, options and step fields with their path', () => {
    const refused = (stall: unknown): string => {
      try {
        policyWith(stall);
      } catch (error) {
        expect(isStopPolicyError(error)).toBe(true);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refused({ detector: 'step_history', patterns: ['loops'] })).toMatch(/^rules\[0\]\.when\.stall\.patterns\[0\]: must be one of repeated-result/);
    expect(refused({ detector: 'step_history', options: { repeatedResults: { repeats: 3 } } })).toMatch(/^rules\[0\]\.when\.stall\.options\.repeatedResults: unknown field/);
    expect(refused({ detector: 'step_history', options: { repeatedResult: { repeats: 1 } } })).toMatch(/^rules\[0\]\.when\.stall\.options: stall option repeatedResult\.repeats must be an integer >= 2/);
    expect(refused({ detector: 'step_history', rounds: 3 })).toMatch(/^rules\[0\]\.when\.stall\.rounds: unknown field/);
    const policy = policyWith({ detector: 'step_history' });
    expect(() => decide(policy, initialStopState(policy), { step: 1, steps: [{ tool: 'bash', stdout: 'x' }] as unknown as StallStep[] })).toThrow(
      'unknown step field "stdout" in event.steps[0]',
    );
  });

  it('keeps the state small over a long run of large outputs', () => {
    const policy = policyWith({ detector: 'step_history' });
    let state = initialStopState(policy);
    const big = 'z'.repeat(100 * 1024);
    for (let step = 1; step <= 2000; step++) {
      state = decide(policy, state, { step, steps: [{ tool: 'bash', input: { command: `cat part-${step % 50}` }, output: `${big}${step}`, exitCode: 0 }] }).state;
    }
    expect(Buffer.byteLength(JSON.stringify(state))).toBeLessThan(20 * 1024);
  });
});
