import { describe, expect, it } from 'vitest';
import { compileStopPolicy, formatUnmet, labelOf } from '../../../src/core/policy/compile-stop-policy.js';
import { decide, initialStopState, needsJudgement } from '../../../src/core/policy/decide.js';
import { parseStopPolicy } from '../../../src/core/policy/parse-stop-policy.js';
import { SEED_STOP_POLICY } from '../../../src/core/policy/seed-stop-policy.js';
import type { StopEvent } from '../../../src/core/policy/stop-event.js';
import { StopPolicyError } from '../../../src/core/policy/stop-policy-error.js';
import type { RuleCondition, StopPolicyDocument } from '../../../src/core/policy/stop-policy-document.js';
import type { StopState } from '../../../src/core/policy/stop-state.js';
import type { StallStep } from '../../../src/core/stall-detection/stall-step.js';

const stop = { kind: 'stop', exit: 'success', reason: 'ok' } as const;
const success = (when: unknown): StopPolicyDocument => parseStopPolicy({ version: 2, rules: [{ id: 'ok', when, then: stop }] });
const PASS = { passed: true, failed: [], ran: 3 };

describe('compileStopPolicy', () => {
  it('compiles a policy once, validating it, and keeps the longest stall window and each step-history detector', () => {
    const value = {
      version: 2,
      rules: [
        { id: 'a', when: { stall: { detector: 'identical_fingerprints', rounds: 2 } }, then: stop },
        { id: 'b', when: { any: [{ stall: { detector: 'identical_fingerprints', rounds: 5 } }, { stall: { detector: 'step_history' } }] }, then: stop },
        { id: 'c', when: { stall: { detector: 'step_history', options: { repeatedResult: { repeats: 2 } } } }, then: stop },
      ],
    } as const;
    const compiled = compileStopPolicy(value as unknown as StopPolicyDocument);
    expect(compileStopPolicy(value as unknown as StopPolicyDocument)).toBe(compiled);
    expect(compiled.window).toBe(5);
    expect(compiled.stepHistory).toEqual([undefined, { repeatedResult: { repeats: 2 } }]);
    expect(compiled.rules.map((rule) => rule.id)).toEqual(['a', 'b', 'c']);
    expect(Object.isFrozen(compiled.document)).toBe(true);
    expect(() => compileStopPolicy({ version: 2, rules: [] } as unknown as StopPolicyDocument)).toThrow(StopPolicyError);
  });
});

describe('formatUnmet and labelOf', () => {
  it('writes the part of a condition that did not hold as one line', () => {
    const { decision } = decide(SEED_STOP_POLICY, initialStopState(SEED_STOP_POLICY), { step: 14, tests: { passed: true, failed: [], ran: 12 }, probabilities: { a: 0.9 } });
    expect(decision.trace.map((entry) => `${entry.rule}: ${formatUnmet(entry.unmet)}`)).toEqual([
      'hard_cap: limit.steps: 14 < 20',
      'stalled: stall.identical: 1 of 3 identical',
      'no_tests_ran: tests.no_tests_ran: 12 ran',
      'evidence_contradicts_model: all[0].tests.failed: 12 ran, none failed',
      'tests_failed: all[0].tests.failed: 12 ran, none failed',
    ]);
    expect(formatUnmet({ condition: 'verification.passed', actual: 'failed', relation: ', not passed' })).toBe('verification.passed: failed, not passed');
    expect(formatUnmet({ condition: 'criteria.within', actual: [0.4, 0.7], relation: '' })).toBe('criteria.within: [0.4, 0.7]');
  });

  it('names every kind of condition', () => {
    const labels: [RuleCondition, string][] = [
      [{ limit: { of: 'decisionModelCalls', max: 3 } }, 'limit.decisionModelCalls'],
      [{ tests: 'stale' }, 'tests.stale'],
      [{ check: { name: 'lint', is: 'passed' } }, 'check.lint'],
      [{ criteria: { gte: 0.5 } }, 'criteria.lowest'],
      [{ criteria: { criterion: 'security', lt: 0.5 } }, 'criteria.security'],
      [{ signal: 'none' }, 'signal.none'],
      [{ verification: 'failed' }, 'verification.failed'],
      [{ human: 'timed_out' }, 'human.timed_out'],
      [{ stall: { detector: 'identical_fingerprints', rounds: 3 } }, 'stall.identical'],
      [{ stall: { detector: 'step_history' } }, 'stall.step_history'],
      [{ retries: { atLeast: 2 } }, 'retries'],
      [{ decisionModel: 'unavailable' }, 'decisionModel.unavailable'],
      [{ provider: 'token_limit' }, 'provider.token_limit'],
      [{ reentered: true }, 'reentered'],
      [{ taskType: 'bugfix' }, 'taskType.bugfix'],
      [{ always: true }, 'always'],
    ];
    for (const [condition, label] of labels) expect(labelOf(condition)).toBe(label);
  });
});

describe('the decisionModel, provider, reentered and taskType conditions', () => {
  it('parse, and read the event', () => {
    for (const when of [{ decisionModel: 'answered' }, { decisionModel: 'unavailable' }, { decisionModel: 'none' }, { provider: 'failed' }, { reentered: true }, { taskType: 'bugfix' }]) {
      expect(success(when).rules[0]?.when).toEqual(when);
    }
    expect(() => success({ reentered: false })).toThrow('rules[0].when.reentered: must be true, got false');
    expect(() => success({ taskType: '' })).toThrow(/^rules\[0\]\.when\.taskType: must not be empty, got ""$/);
    const at = (when: RuleCondition, event: StopEvent) => {
      const policy = success(when);
      return decide(policy, initialStopState(policy), event).decision;
    };
    expect(at({ provider: 'token_limit' }, { step: 1, provider: 'token_limit' })).toMatchObject({ kind: 'stop', values: { step: 1, provider: 'token_limit' } });
    expect(at({ provider: 'failed' }, { step: 1 }).trace).toEqual([{ rule: 'ok', unmet: { condition: 'provider.failed', actual: 'complete', relation: ', not failed' } }]);
    expect(at({ decisionModel: 'answered' }, { step: 1, probabilities: {} })).toMatchObject({ kind: 'stop', values: { decisionModel: 'answered' } });
    expect(at({ decisionModel: 'none' }, { step: 1 }).trace[0]?.unmet).toEqual({ condition: 'decisionModel.none', actual: 'not asked', relation: ', not none' });
    expect(at({ reentered: true }, { step: 1, reentered: false }).kind).toBe('continue');
  });

  it('let a criteria condition with no model to wait for not hold, instead of waiting', () => {
    const policy = parseStopPolicy({
      version: 2,
      rules: [
        { id: 'typed', when: { all: [{ taskType: 'bugfix' }, { reentered: true }] }, then: { kind: 'stop', exit: 'need_help', reason: 'x' } },
        { id: 'judged', when: { criteria: { gte: 0.5 } }, then: stop },
        { id: 'fallback', when: { always: true }, then: { kind: 'retry', reason: 'again' } },
      ],
    });
    const state = initialStopState(policy);
    expect(decide(policy, state, { step: 1, taskType: 'bugfix', reentered: true }).decision).toMatchObject({ rule: 'typed', values: { taskType: 'bugfix', reentered: true } });
    expect(needsJudgement(policy, state, { step: 1, taskType: 'feature' })).toBe(true);
    for (const decisionModel of ['unavailable', 'none'] as const) {
      expect(needsJudgement(policy, state, { step: 1, taskType: 'feature', decisionModel })).toBe(false);
      const unjudged = decide(policy, state, { step: 1, taskType: 'feature', decisionModel }).decision;
      expect(unjudged.rule).toBe('fallback');
      expect(unjudged.trace[0]?.unmet).toEqual({ condition: 'all[0].taskType.bugfix', actual: 'feature', relation: ', not bugfix' });
      expect(unjudged.trace[1]).toEqual({ rule: 'judged', unmet: { condition: 'criteria.lowest', actual: `decision model ${decisionModel === 'none' ? 'not asked' : 'unavailable'}`, relation: '' } });
    }
  });
});

describe('conditions on what an event does not carry', () => {
  it('reads a check only from the event own names, never from Object.prototype', () => {
    for (const name of ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__']) {
      const policy = success({ check: { name, is: 'passed' } });
      expect(decide(policy, initialStopState(policy), { step: 1, checks: {} }).decision.kind).toBe('continue');
      const missing = success({ check: { name, is: 'missing' } });
      expect(decide(missing, initialStopState(missing), { step: 1, checks: {} }).decision.kind).toBe('stop');
    }
  });

  it('treats a named criterion the model did not answer as unknown, so not() cannot turn it into success', () => {
    const policy = success({ all: [{ tests: 'passed' }, { not: { criteria: { criterion: 'security', lt: 0.9 } } }] } satisfies RuleCondition);
    const state = initialStopState(policy);
    const event = { step: 1, tests: PASS, probabilities: { other: 0.1 } };
    expect(needsJudgement(policy, state, event)).toBe(true);
    expect(() => decide(policy, state, event)).toThrow('rule "ok" reads all[1].not.criteria.security, which the probabilities of event 1 do not answer');
    expect(decide(policy, state, { ...event, probabilities: { security: 0.95 } }).decision.kind).toBe('stop');
  });

  it('counts evidence as stale unless it is shown to be taken on the event tree', () => {
    const policy = success({ all: [{ tests: 'passed' }, { not: { tests: 'stale' } }] });
    const state = initialStopState(policy);
    expect(decide(policy, state, { step: 1, tests: PASS }).decision.kind).toBe('continue');
    expect(decide(policy, state, { step: 1, tests: { ...PASS, treeFingerprint: 'a' }, tree: 'b' }).decision.kind).toBe('continue');
    expect(decide(policy, state, { step: 1, tests: { ...PASS, treeFingerprint: 'a' }, tree: 'a' }).decision.kind).toBe('stop');
  });
});

describe('the step_history stall detector as a condition', () => {
  const policyWith = (stall: unknown) =>
    parseStopPolicy({
      version: 2,
      rules: [
        { id: 'looping', when: { stall }, then: { kind: 'stop', exit: 'need_help', reason: 'looping' } },
        { id: 'red', when: { tests: 'failed' }, then: { kind: 'retry', reason: 'tests_failed' } },
      ],
    });
  const RED = { passed: false, failed: ['parser > keeps line numbers'], ran: 12 };
  const failingRun: StallStep = { tool: 'bash', input: { command: 'npm test' }, output: '1 failing\n  parser > keeps line numbers: expected 3, got 4', exitCode: 1 };
  const edit = (n: number): StallStep => ({ tool: 'edit', input: { path: 'src/parser.ts', text: `attempt ${n}` }, output: 'ok', exitCode: 0 });
  const turn = (n: number): readonly StallStep[] => [edit(n), failingRun];
  const run = (policy: StopPolicyDocument, events: readonly StopEvent[]) => {
    let state: StopState = initialStopState(policy);
    return events.map((event) => {
      const result = decide(policy, state, event);
      state = result.state;
      return result;
    });
  };

  it('stops the turns whose failing check gives the same result after every edit, with the finding in the values', () => {
    const policy = policyWith({ detector: 'step_history' });
    const results = run(policy, Array.from({ length: 6 }, (_, i) => ({ step: i + 1, tests: RED, steps: turn(i) })));
    const rules = results.map((result) => result.decision.rule);
    const first = rules.indexOf('looping');
    expect(first).toBeGreaterThan(0);
    expect(rules.slice(0, first).every((rule) => rule === 'red')).toBe(true);
    expect(results[first]?.decision).toMatchObject({
      kind: 'stop',
      exit: 'need_help',
      values: { stallPattern: expect.any(String), stallStep: expect.any(Number), stallMessage: expect.any(String) },
    });
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
    expect(results[5]?.decision.trace[0]?.unmet).toMatchObject({ condition: 'stall.step_history', actual: expect.stringMatching(/^only /) });
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
        expect(StopPolicyError.isInstance(error)).toBe(true);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refused({ detector: 'step_history', patterns: ['loops'] })).toMatch(/^rules\[0\]\.when\.stall\.patterns\[0\]: must be one of "repeated-result"/);
    expect(refused({ detector: 'step_history', options: { repeatedResults: { repeats: 3 } } })).toBe('rules[0].when.stall.options.repeatedResults: unknown field (did you mean "repeatedResult"?)');
    expect(refused({ detector: 'step_history', options: { repeatedResult: { repeats: 1 } } })).toBe('rules[0].when.stall.options.repeatedResult.repeats: must be an integer >= 2, got 1');
    expect(refused({ detector: 'step_history', rounds: 3 })).toBe('rules[0].when.stall.rounds: unknown field; expected one of detector, patterns, options');
    const policy = policyWith({ detector: 'step_history' });
    expect(() => decide(policy, initialStopState(policy), { step: 1, steps: [{ tool: 'bash', stdout: 'x' }] as unknown as StallStep[] })).toThrow(
      'unknown step field "stdout" in event.steps[0]',
    );
  });

  it('keeps the state small over a long run of large outputs', { timeout: 120_000 }, () => {
    const policy = policyWith({ detector: 'step_history' });
    let state = initialStopState(policy);
    const big = 'z'.repeat(100 * 1024);
    for (let step = 1; step <= 1000; step++) {
      state = decide(policy, state, { step, steps: [{ tool: 'bash', input: { command: `cat part-${step % 50}` }, output: `${big}${step}`, exitCode: 0 }] }).state;
    }
    expect(Buffer.byteLength(JSON.stringify(state))).toBeLessThan(20 * 1024);
  });
});
