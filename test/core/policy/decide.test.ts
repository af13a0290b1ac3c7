import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide, initialStopState, needsJudgement } from '../../../src/core/policy/decide.js';
import { parseStopPolicy } from '../../../src/core/policy/parse-stop-policy.js';
import { SEED_STOP_POLICY } from '../../../src/core/policy/seed-stop-policy.js';
import type { StopDecision } from '../../../src/core/policy/stop-decision.js';
import type { StopEvent } from '../../../src/core/policy/stop-event.js';
import type { RuleCondition, StopPolicyDocument } from '../../../src/core/policy/stop-policy-document.js';
import type { StopState } from '../../../src/core/policy/stop-state.js';
import { condition, eventBody, eventStream, seedEventBody } from './arbitraries.js';

const PASS = { passed: true, failed: [], ran: 12 } as const;
const FAIL = { passed: false, failed: ['auth > rejects expired token'], ran: 12 } as const;
const HIGH = { acceptanceCovered: 0.92, noOpenQuestions: 0.81 };

function run(policy: StopPolicyDocument, events: readonly StopEvent[]): { states: StopState[]; decisions: StopDecision[] } {
  let state = initialStopState(policy);
  const states: StopState[] = [];
  const decisions: StopDecision[] = [];
  for (const event of events) {
    const result = decide(policy, state, event);
    state = result.state;
    states.push(state);
    decisions.push(result.decision);
  }
  return { states, decisions };
}

const policyOf = (when: RuleCondition): StopPolicyDocument =>
  parseStopPolicy({ version: 2, rules: [{ id: 'r', when, then: { kind: 'stop', exit: 'success', reason: 'held' } }] });

describe('decide', () => {
  it('returns the rule that fired, the values it compared and why each earlier rule did not', () => {
    const { decision } = decide(SEED_STOP_POLICY, initialStopState(SEED_STOP_POLICY), { step: 3, tests: PASS, probabilities: HIGH, output: 'done' });
    expect(decision).toEqual({
      kind: 'stop',
      exit: 'success',
      reason: 'tests_and_criteria_passed',
      rule: 'tests_and_criteria_passed',
      values: { step: 3, ran: 12, lowestCriterion: 'noOpenQuestions', lowestProbability: 0.81, minProbability: 0.7 },
      trace: [
        { rule: 'hard_cap', unmet: { condition: 'limit.steps', actual: 3, relation: '< 20' } },
        { rule: 'stalled', unmet: { condition: 'stall.identical', actual: 1, relation: 'of 3 identical' } },
        { rule: 'no_tests_ran', unmet: { condition: 'tests.no_tests_ran', actual: 12, relation: 'ran' } },
        { rule: 'evidence_contradicts_model', unmet: { condition: 'all[0].tests.failed', actual: 12, relation: 'ran, none failed' } },
        { rule: 'tests_failed', unmet: { condition: 'all[0].tests.failed', actual: 12, relation: 'ran, none failed' } },
      ],
    });
  });

  it('gives a retry feedback for the agent that names the failing tests and the unmet criteria', () => {
    const state = initialStopState(SEED_STOP_POLICY);
    const failed = decide(SEED_STOP_POLICY, state, { step: 1, tests: FAIL, probabilities: { acceptanceCovered: 0.3 } }).decision;
    expect(failed).toMatchObject({
      kind: 'retry',
      rule: 'tests_failed',
      feedback: { failedTests: ['auth > rejects expired token'], unmetCriteria: ['acceptanceCovered'] },
    });
    expect(failed.kind === 'retry' && failed.feedback.message).toBe('1 test failed: auth > rejects expired token. Fix it and run the tests again before you finish.');
    const withMessage = decide(SEED_STOP_POLICY, state, {
      step: 1,
      tests: { ...FAIL, failures: [{ name: 'auth > rejects expired token', message: 'expected 401\n    at check (auth.test.ts:3:1)\nreceived 200' }] },
      probabilities: { acceptanceCovered: 0.3 },
    }).decision;
    expect(withMessage.kind === 'retry' && withMessage.feedback.message).toBe(
      '1 test failed: auth > rejects expired token. Fix it and run the tests again before you finish.\n- auth > rejects expired token: expected 401 received 200',
    );
    const midBand = decide(SEED_STOP_POLICY, state, { step: 1, tests: PASS, probabilities: { acceptanceCovered: 0.9, noOpenQuestions: 0.5 } }).decision;
    expect(midBand).toMatchObject({ kind: 'retry', reason: 'criteria_mid_band', feedback: { unmetCriteria: ['noOpenQuestions'] } });
    const none = decide(SEED_STOP_POLICY, state, { step: 1 }).decision;
    expect(none.kind === 'retry' && none.feedback.message).toBe(
      'No tests ran: there is no test result for this step. Run the test suite and make it pass before you finish.',
    );
  });

  it('continues with no rule when none fires', () => {
    const policy = policyOf({ tests: 'passed' });
    const { decision } = decide(policy, initialStopState(policy), { step: 1, tests: FAIL });
    expect(decision).toEqual({
      kind: 'continue',
      reason: 'no_rule_fired',
      rule: null,
      values: { step: 1 },
      trace: [{ rule: 'r', unmet: { condition: 'tests.passed', actual: 12, relation: 'ran, 1 named failed' } }],
    });
  });

  it('adds each event usage to the totals and stops at a limit on cost', () => {
    const policy = parseStopPolicy({
      version: 2,
      rules: [{ id: 'budget', when: { limit: { of: 'cost', max: 2 } }, then: { kind: 'stop', exit: 'limit', reason: 'cost' } }],
    });
    const { decisions, states } = run(policy, [
      { step: 1, usage: { cost: 0.75, inputTokens: 100 } },
      { step: 2, usage: { cost: 0.75 } },
      { step: 3, usage: { cost: 0.75 } },
    ]);
    expect(decisions.map((d) => d.kind)).toEqual(['continue', 'continue', 'stop']);
    expect(decisions[2]?.values).toEqual({ step: 3, cost: 2.25, maxCost: 2 });
    expect(states[2]?.totals).toMatchObject({ cost: 2.25, inputTokens: 100 });
  });

  it('does not latch a stop: a later event is decided as the rules say', () => {
    const policy = policyOf({ tests: 'failed' });
    const { decisions } = run(policy, [
      { step: 1, tests: FAIL },
      { step: 2, tests: PASS },
    ]);
    expect(decisions.map((d) => d.kind)).toEqual(['stop', 'continue']);
  });

  it('counts retries in a row before the event', () => {
    const policy = parseStopPolicy({
      version: 2,
      rules: [
        { id: 'give_up', when: { retries: { atLeast: 2 } }, then: { kind: 'stop', exit: 'need_help', reason: 'still_failing' } },
        { id: 'again', when: { tests: 'failed' }, then: { kind: 'retry', reason: 'tests_failed' } },
      ],
    });
    const { decisions, states } = run(policy, [
      { step: 1, tests: FAIL },
      { step: 2, tests: FAIL },
      { step: 3, tests: FAIL },
      { step: 4, tests: PASS },
    ]);
    expect(decisions.map((d) => d.rule)).toEqual(['again', 'again', 'give_up', null]);
    expect(states.map((s) => s.retries)).toEqual([1, 2, 0, 0]);
  });

  it('decides an event of step 0 (before the first step) on a state that decided nothing, once', () => {
    const policy = policyOf({ limit: { of: 'steps', max: 0 } });
    const first = decide(policy, initialStopState(policy), { step: 0, elapsedMs: 0 });
    expect(first.decision).toMatchObject({ kind: 'stop', values: { step: 0, steps: 0, maxSteps: 0 } });
    expect(first.state.step).toBe(0);
    expect(decide(policy, first.state, { step: 0, elapsedMs: 0 }).state).toBe(first.state);
    expect(() => decide(policy, first.state, { step: 0, elapsedMs: 5 })).toThrow('step 0 was already decided with a different event');
    const after = decide(policy, first.state, { step: 1 }).state;
    expect(() => decide(policy, after, { step: 0 })).toThrow('event.step 0 is not after the last step decided (1)');
  });

  it('takes the driver progress fingerprint as given, and none (null) as no step toward a stall', () => {
    const policy = policyOf({ stall: { detector: 'identical_fingerprints', rounds: 2 } });
    const kinds = (events: StopEvent[]) => run(policy, events).decisions.map((d) => d.kind);
    expect(kinds([{ step: 1, fingerprint: 'turn-a' }, { step: 2, fingerprint: 'turn-a', output: 'different' }])).toEqual(['continue', 'stop']);
    expect(kinds([{ step: 1, fingerprint: 'turn-a' }, { step: 2, fingerprint: null }, { step: 3, fingerprint: 'turn-a' }])).toEqual(['continue', 'continue', 'stop']);
    expect(run(policy, [{ step: 1, fingerprint: null }]).states[0]?.fingerprints).toEqual([]);
    expect(kinds([{ step: 1, output: 'same' }, { step: 2, output: 'same' }])).toEqual(['continue', 'stop']);
  });

  it('accepts steps that skip numbers, and compares the step cap with the step itself', () => {
    const { decisions } = run(SEED_STOP_POLICY, [
      { step: 2, tests: PASS, probabilities: { a: 0.5 } },
      { step: 20, tests: PASS, probabilities: { a: 0.5 } },
    ]);
    expect(decisions.map((d) => d.reason)).toEqual(['criteria_mid_band', 'hard_cap']);
  });

  it('treats the same event for the last step as a replay: the same decision, the state unchanged', () => {
    const event = { step: 1, tests: FAIL, probabilities: { acceptanceCovered: 0.3 }, output: 'x', usage: { cost: 1 } };
    const first = decide(SEED_STOP_POLICY, initialStopState(SEED_STOP_POLICY), event);
    const again = decide(SEED_STOP_POLICY, first.state, JSON.parse(JSON.stringify(event)) as StopEvent);
    expect(again.state).toBe(first.state);
    expect(again.decision).toEqual(first.decision);
    expect(again.state.totals.cost).toBe(1);
    const reordered = { ...event, probabilities: { acceptanceCovered: 0.3 }, usage: { cost: 1 }, output: 'x', tests: { ran: 12, failed: FAIL.failed, passed: false } };
    expect(decide(SEED_STOP_POLICY, first.state, reordered).state).toBe(first.state);
  });

  it('refuses an event for an older step, and a different event for the last step', () => {
    const first = decide(SEED_STOP_POLICY, initialStopState(SEED_STOP_POLICY), { step: 2, tests: FAIL, probabilities: { a: 0.3 } });
    expect(() => decide(SEED_STOP_POLICY, first.state, { step: 1, tests: FAIL, probabilities: { a: 0.3 } })).toThrow(
      'event.step 1 is not after the last step decided (2)',
    );
    expect(() => decide(SEED_STOP_POLICY, first.state, { step: 2, tests: FAIL, probabilities: { a: 0.31 } })).toThrow(
      'step 2 was already decided with a different event',
    );
    expect(() => decide(SEED_STOP_POLICY, first.state, { step: 2, tests: PASS, probabilities: { a: 0.3 } })).toThrow(/different event/);
  });

  it('needs the decision model only when the rules cannot decide without it', () => {
    const state = initialStopState(SEED_STOP_POLICY);
    expect(needsJudgement(SEED_STOP_POLICY, state, { step: 1, tests: PASS })).toBe(true);
    expect(needsJudgement(SEED_STOP_POLICY, state, { step: 1, tests: { passed: false, failed: [], ran: 0 } })).toBe(false);
    expect(needsJudgement(SEED_STOP_POLICY, state, { step: 20, tests: PASS })).toBe(false);
    expect(needsJudgement(SEED_STOP_POLICY, state, { step: 1, tests: PASS, probabilities: HIGH })).toBe(false);
    expect(() => decide(SEED_STOP_POLICY, state, { step: 1, tests: PASS })).toThrow(
      'rule "tests_and_criteria_passed" needs criterion probabilities and event 1 has none',
    );
    expect(() => decide(SEED_STOP_POLICY, state, { step: 1, tests: FAIL })).toThrow('rule "evidence_contradicts_model" needs criterion probabilities');
  });

  it('rejects malformed events and states with the field named', () => {
    const state = initialStopState(SEED_STOP_POLICY);
    const bad = (event: unknown) => () => decide(SEED_STOP_POLICY, state, event as StopEvent);
    expect(bad({ step: -1 })).toThrow('event.step must be a non-negative integer');
    expect(bad({ step: 1.5 })).toThrow('event.step must be a non-negative integer');
    expect(bad({ step: 1, usage: { costUsd: 2 } })).toThrow('unknown usage counter "costUsd" in event.usage');
    expect(bad({ step: 1, usage: { cost: Number.NaN } })).toThrow('event.usage.cost must be a non-negative finite number');
    expect(bad({ step: 1, probabilities: { a: 1.2 } })).toThrow(/criterion "a" has probability 1.2/);
    expect(bad({ step: 1, toolCalls: [] })).toThrow('unknown stop event field "toolCalls"');
    expect(bad({ step: 1, signal: { kind: 'finished' } })).toThrow('event.signal.kind must be one of done, give_up, need_help');
    expect(() => decide(SEED_STOP_POLICY, { ...state, version: 1 } as unknown as StopState, { step: 1 })).toThrow('stop state version must be 2, got 1');
    expect(() => decide(SEED_STOP_POLICY, { ...state, fingerprints: ['x'.repeat(129)] }, { step: 1 })).toThrow(
      'state.fingerprints must be an array of progress fingerprints (strings of at most 128 characters)',
    );
    expect(bad({ step: 1, fingerprint: 'x'.repeat(129) })).toThrow('event.fingerprint must be a progress fingerprint');
    expect(bad({ step: 1, provider: 'timeout' })).toThrow('event.provider must be one of token_limit, step_limit, failed');
  });

  it('reads the finish signal, the verification, a person, named checks and fresh evidence', () => {
    const policy = parseStopPolicy({
      version: 2,
      rules: [
        { id: 'human_timeout', when: { human: 'timed_out' }, then: { kind: 'stop', exit: 'need_help', reason: 'no_answer' } },
        { id: 'gave_up', when: { signal: 'give_up' }, then: { kind: 'stop', exit: 'gave_up', reason: 'gave_up' } },
        { id: 'stale', when: { tests: 'stale' }, then: { kind: 'retry', reason: 'evidence_stale' } },
        { id: 'lint', when: { check: { name: 'lint', is: 'failed' } }, then: { kind: 'retry', reason: 'lint_failed' } },
        {
          id: 'done',
          when: { all: [{ signal: 'done' }, { verification: 'passed' }, { tests: 'fresh' }] },
          then: { kind: 'stop', exit: 'success', reason: 'verified' },
        },
        { id: 'unverified', when: { verification: 'failed' }, then: { kind: 'retry', reason: 'claim_not_verified' } },
      ],
    });
    const state = initialStopState(policy);
    const tests = { ...PASS, treeFingerprint: 'tree-a' };
    const at = (event: Omit<StopEvent, 'step'>) => decide(policy, state, { step: 1, ...event }).decision;
    expect(at({ human: { timedOut: true } }).rule).toBe('human_timeout');
    expect(at({ human: { timedOut: false, answer: 'yes' }, signal: { kind: 'give_up', note: 'no access' } }).rule).toBe('gave_up');
    expect(at({ tests, tree: 'tree-b' }).rule).toBe('stale');
    expect(at({ tests, tree: 'tree-a', checks: { lint: false } }).rule).toBe('lint');
    expect(at({ tests, tree: 'tree-a', signal: { kind: 'done', note: '' }, verification: { ok: true } })).toMatchObject({
      rule: 'done',
      values: { signal: 'done', verified: true, treeFingerprint: 'tree-a' },
    });
    const unverified = at({ tests, tree: 'tree-a', signal: { kind: 'done', note: '' }, verification: { ok: false, unmet: ['docs updated'] } });
    expect(unverified).toMatchObject({ kind: 'retry', rule: 'unverified' });
    expect(unverified.kind === 'retry' && unverified.feedback.message).toBe('Not met yet: docs updated.');
  });

  it('refuses an event whose usage takes a total past the largest number, leaving the state usable', () => {
    const policy = policyOf({ limit: { of: 'cost', max: 1e308 } });
    const first = decide(policy, initialStopState(policy), { step: 1, usage: { cost: 1.5e308 } });
    expect(() => decide(policy, first.state, { step: 2, usage: { cost: 1.5e308 } })).toThrow(/event\.usage\.cost takes the run's total past the largest number/);
    expect(decide(policy, first.state, { step: 2, usage: { cost: 1 } }).decision.kind).toBe('stop');
  });

  it('keeps the state small whatever the length of the run', () => {
    const big = 'y'.repeat(100 * 1024);
    let state = initialStopState(SEED_STOP_POLICY);
    for (let step = 1; step <= 10_000; step++) {
      const output = step % 1000 === 0 ? big : `step ${step % 7}`;
      state = decide(SEED_STOP_POLICY, state, { step, tests: step % 3 === 0 ? FAIL : PASS, probabilities: { a: (step % 10) / 10 }, output, usage: { cost: 0.01 } }).state;
    }
    expect(Buffer.byteLength(JSON.stringify(state))).toBeLessThanOrEqual(4096);
    expect(state.fingerprints).toHaveLength(3);
  });
});

describe('decide: properties', { timeout: 180_000 }, () => {
  // Each run decides a whole stream (up to a dozen events, each a check) or a condition on an event: a few hundred
  // runs reach every kind of condition and event field many times over.
  const config = { numRuns: 500 };
  const fewer = { numRuns: 400 };

  // The random conditions name acceptanceCovered: every event answers it, so no rule waits for the decision model.
  const judged = eventStream().map((events) => events.map((event) => ({ ...event, probabilities: { acceptanceCovered: 0.5, ...event.probabilities } })));

  it('decides the same stream the same way twice, and a replayed last event changes nothing', () => {
    fc.assert(
      fc.property(condition, judged, (when, events) => {
        const policy = policyOf(when);
        const once = run(policy, events);
        expect(run(policy, events)).toEqual(once);
        const last = events[events.length - 1] as StopEvent;
        const state = once.states[once.states.length - 1] as StopState;
        const replay = decide(policy, state, last);
        expect(replay.state).toBe(state);
        expect(replay.decision).toEqual(once.decisions[once.decisions.length - 1]);
      }),
      fewer,
    );
  });

  it('changes no decision when the state goes through JSON between any two events', () => {
    fc.assert(
      fc.property(condition, judged, (when, events) => {
        const policy = policyOf(when);
        const direct = run(policy, events);
        let state = initialStopState(policy);
        events.forEach((event, index) => {
          const result = decide(policy, JSON.parse(JSON.stringify(state)) as StopState, JSON.parse(JSON.stringify(event)) as StopEvent);
          expect(result.decision).toEqual(direct.decisions[index]);
          state = result.state;
        });
        expect(JSON.parse(JSON.stringify(state))).toEqual(direct.states[direct.states.length - 1]);
      }),
      fewer,
    );
  });

  it('lets a limit rule placed first win whatever the probabilities and the evidence', () => {
    const policy = parseStopPolicy({
      version: 2,
      rules: [{ id: 'cap', when: { limit: { of: 'steps', max: 5 } }, then: { kind: 'stop', exit: 'limit', reason: 'cap' } }, ...SEED_STOP_POLICY.rules],
    });
    fc.assert(
      fc.property(eventStream(undefined, 1, 12), (events) => {
        let state = initialStopState(policy);
        for (const event of events) {
          const withProbabilities = { ...event, probabilities: event.probabilities ?? { a: 1 } };
          const result = decide(policy, state, withProbabilities);
          if (event.step >= 5) expect(result.decision).toMatchObject({ kind: 'stop', exit: 'limit', rule: 'cap' });
          else expect(result.decision.rule).not.toBe('cap');
          state = result.state;
        }
      }),
      fewer,
    );
  });

  // One condition on one event, decided by a one-rule policy: undefined when it waits for the decision model.
  const holds = (when: RuleCondition, event: StopEvent): boolean | undefined => {
    const policy = policyOf(when);
    const state = initialStopState(policy);
    return needsJudgement(policy, state, event) ? undefined : decide(policy, state, event).decision.kind === 'stop';
  };
  // A light event: what the random conditions read, with nothing they do not.
  const singleEvent: fc.Arbitrary<StopEvent> = fc.record(
    {
      step: fc.integer({ min: 1, max: 30 }),
      tests: fc.record({ passed: fc.boolean(), failed: fc.constantFrom([], ['a'], ['a', 'b']), ran: fc.constantFrom(0, 1, 12) }),
      probabilities: fc.constantFrom({}, { acceptanceCovered: 0.2 }, { acceptanceCovered: 0.7, other: 0.95 }, { other: 0.5 }),
      usage: fc.record({ inputTokens: fc.constantFrom(0, 9000, 20000) }),
      signal: fc.constantFrom(undefined, { kind: 'done' as const, note: '' }, { kind: 'give_up' as const, note: '' }),
      checks: fc.constantFrom(undefined, { lint: true }, { lint: false }),
      human: fc.constantFrom(undefined, { timedOut: true }, { timedOut: false, answer: 'yes' }),
    },
    { requiredKeys: ['step', 'tests'] },
  ) as fc.Arbitrary<StopEvent>;

  it('decides not(not(c)) as c', () => {
    fc.assert(
      fc.property(condition, singleEvent, (c, event) => {
        expect(holds({ not: { not: c } }, event)).toBe(holds(c, event));
      }),
      config,
    );
  });

  it('never holds any([]) and always holds all([])', () => {
    fc.assert(
      fc.property(singleEvent, (event) => {
        expect(holds({ any: [] }, event)).toBe(false);
        expect(holds({ all: [] }, event)).toBe(true);
      }),
      config,
    );
  });

  it('decides atLeast(1, cs) as any(cs) and atLeast(n, cs) as all(cs)', () => {
    fc.assert(
      fc.property(fc.array(condition, { minLength: 1, maxLength: 3 }), singleEvent, (cs, event) => {
        expect(holds({ atLeast: { count: 1, of: cs } }, event)).toBe(holds({ any: cs }, event));
        expect(holds({ atLeast: { count: cs.length, of: cs } }, event)).toBe(holds({ all: cs }, event));
      }),
      { numRuns: 300 },
    );
  });
});

// The engine inside a workflow engine. Temporal re-executes workflow code from its event history, so the same
// activity results must give the same decisions; runtimes that persist the stop state after an event (a LangGraph
// checkpoint, an Inngest step, a row of your own) may crash before they record that the event was handled and
// deliver it again on recovery, which must count nothing twice.
/** Spend, tokens, the step cap, a stall window, and a retry streak, with a retry rule that feeds it. */
const POLICY = parseStopPolicy({
  version: 2,
  rules: [
    { id: 'budget', when: { limit: { of: 'cost', max: 6 } }, then: { kind: 'stop', exit: 'limit', reason: 'budget' } },
    { id: 'tokens', when: { limit: { of: 'totalTokens', max: 60_000 } }, then: { kind: 'stop', exit: 'limit', reason: 'tokens' } },
    { id: 'cap', when: { limit: { of: 'steps', max: 30 } }, then: { kind: 'stop', exit: 'limit', reason: 'max_steps' } },
    { id: 'stalled', when: { stall: { detector: 'identical_fingerprints', rounds: 4 } }, then: { kind: 'stop', exit: 'need_help', reason: 'stalled' } },
    { id: 'blocked', when: { all: [{ signal: 'done' }, { retries: { atLeast: 3 } }] }, then: { kind: 'stop', exit: 'need_help', reason: 'blocked' } },
    { id: 'done', when: { all: [{ signal: 'done' }, { tests: 'passed' }] }, then: { kind: 'stop', exit: 'success', reason: 'done' } },
    { id: 'done_on_red', when: { signal: 'done' }, then: { kind: 'retry', reason: 'done_on_red' } },
  ],
});

/** What the runtime persists: the stop state as JSON, and how many events of the history it has acknowledged. */
interface Store {
  state: string;
  acknowledged: number;
}

class Crash extends Error {}

const viaJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * A worker: takes the next unacknowledged event of the history (an activity result, through the runtime's JSON data
 * converter), decides it on the persisted state, persists the new state, then acknowledges the event. With
 * `crashAt`, it dies after persisting the state of that event and before acknowledging it. Stops at a stop.
 */
function work(policy: StopPolicyDocument, history: readonly StopEvent[], store: Store, log: StopDecision[], crashAt?: number): void {
  for (let index = store.acknowledged; index < history.length; index++) {
    const result = decide(policy, JSON.parse(store.state) as StopState, viaJson(history[index] as StopEvent));
    store.state = JSON.stringify(result.state);
    if (index === crashAt) throw new Crash(`crashed after event ${index}`);
    store.acknowledged = index + 1;
    log[index] = result.decision;
    if (result.decision.kind === 'stop') return;
  }
}

/** Temporal's way: the workflow code runs again from the start of its history, the stop state rebuilt in memory. */
function replayFromStart(policy: StopPolicyDocument, history: readonly StopEvent[]): { decisions: StopDecision[]; state: StopState } {
  let state = initialStopState(policy);
  const decisions: StopDecision[] = [];
  for (const event of history) {
    const result = decide(policy, state, viaJson(event));
    state = result.state;
    decisions.push(result.decision);
    if (result.decision.kind === 'stop') break;
  }
  return { decisions, state };
}

function uninterrupted(policy: StopPolicyDocument, history: readonly StopEvent[]): { log: StopDecision[]; store: Store } {
  const store: Store = { state: JSON.stringify(initialStopState(policy)), acknowledged: 0 };
  const log: StopDecision[] = [];
  work(policy, history, store, log);
  return { log, store };
}

/** Crashes once after each event in turn (and once more while handling it again), then recovers with a new worker. */
function checkEveryCrash(policy: StopPolicyDocument, history: readonly StopEvent[]): void {
  const reference = uninterrupted(policy, history);
  for (let crashAt = 0; crashAt < reference.store.acknowledged; crashAt++) {
    for (const crashes of [1, 2]) {
      const store: Store = { state: JSON.stringify(initialStopState(policy)), acknowledged: 0 };
      const log: StopDecision[] = [];
      for (let i = 0; i < crashes; i++) expect(() => work(policy, history, store, log, crashAt)).toThrow(Crash);
      // The state already holds the event it did not acknowledge: the next worker applies that event again.
      expect((JSON.parse(store.state) as StopState).step).toBe(history[crashAt]?.step);
      work(policy, history, store, log);
      expect(log).toEqual(reference.log);
      // Byte for byte the state of the run that never crashed: no step, token, cost or retry counted twice.
      expect(store.state).toBe(reference.store.state);
    }
  }
}

describe('the engine in a workflow engine: replayed histories', { timeout: 180_000 }, () => {
  const spend = eventStream(eventBody, 1, 25).map((events) =>
    events.map((event) => ({ ...event, usage: { inputTokens: 1500, outputTokens: 500, cost: 0.25, ...event.usage } })),
  );

  it('decides the same history the same way on every replay from the start', () => {
    fc.assert(
      fc.property(spend, (history) => {
        const first = replayFromStart(POLICY, history);
        const second = replayFromStart(POLICY, history);
        expect(second.decisions).toEqual(first.decisions);
        expect(JSON.stringify(second.state)).toBe(JSON.stringify(first.state));
        expect(uninterrupted(POLICY, history).log).toEqual(first.decisions);
      }),
      { numRuns: 300 },
    );
  });

  it('counts nothing twice when a worker crashes after persisting a state and the event is delivered again', () => {
    // Each run already crashes the history after every one of its events, once and twice: a hundred histories suffice.
    fc.assert(fc.property(spend, (history) => checkEveryCrash(POLICY, history)), { numRuns: 100 });
    fc.assert(fc.property(eventStream(seedEventBody, 1, 12), (history) => checkEveryCrash(SEED_STOP_POLICY, history)), { numRuns: 100 });
  });

  it('adds a step\'s spend once, however often that step is applied again', () => {
    const history: StopEvent[] = [1, 2, 3].map((step) => ({ step, output: `turn ${step}`, usage: { inputTokens: 1000, outputTokens: 200, cost: 0.5 } }));
    let state = initialStopState(POLICY);
    for (const event of history) {
      for (let delivery = 0; delivery < 3; delivery++) state = decide(POLICY, viaJson(state), viaJson(event)).state;
    }
    expect(state.totals).toMatchObject({ inputTokens: 3000, outputTokens: 600, cost: 1.5 });
    expect(state.step).toBe(3);
  });

  it('refuses, instead of counting, an older event or a different result for the step already applied', () => {
    const history: StopEvent[] = [
      { step: 1, output: 'edited parser.ts', usage: { cost: 0.25 } },
      { step: 2, output: 'ran the suite', signal: { kind: 'done', note: 'done' }, usage: { cost: 0.25 } },
    ];
    const store: Store = { state: JSON.stringify(initialStopState(POLICY)), acknowledged: 0 };
    expect(() => work(POLICY, history, store, [], 1)).toThrow(Crash);
    const persisted = JSON.parse(store.state) as StopState;
    // A runtime that lost its place and sends step 1 again is misusing the engine.
    expect(() => decide(POLICY, persisted, history[0] as StopEvent)).toThrow(/event.step 1 is not after the last step decided \(2\)/);
    // An activity that ran again and returned something else (not replay-safe) is caught, not added to the totals.
    expect(() => decide(POLICY, persisted, { ...(history[1] as StopEvent), usage: { cost: 0.5 } })).toThrow(/step 2 was already decided with a different event/);
    expect(decide(POLICY, persisted, history[1] as StopEvent).state).toBe(persisted);
  });
});
