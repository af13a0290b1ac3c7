// The engine inside a workflow engine. Temporal re-executes workflow code from its event history, so the same
// activity results must give the same decisions; runtimes that persist the stop state after an event (a LangGraph
// checkpoint, an Inngest step, a row of your own) may crash before they record that the event was handled and
// deliver it again on recovery, which must count nothing twice.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide } from '../../../src/core/policy/decide.js';
import { parseStopPolicy } from '../../../src/core/policy/parse-stop-policy.js';
import { SEED_STOP_POLICY } from '../../../src/core/policy/seed-stop-policy.js';
import type { StopDecision } from '../../../src/core/policy/stop-decision.js';
import type { StopEvent } from '../../../src/core/policy/stop-event.js';
import type { StopPolicyDocument } from '../../../src/core/policy/stop-policy-document.js';
import { initialStopState, type StopState } from '../../../src/core/policy/stop-state.js';
import { eventBody, eventStream, seedEventBody } from './arbitraries.js';

/** Spend, tokens, the step cap, a stall window, and a retry streak, with a retry rule that feeds it. */
const POLICY = parseStopPolicy({
  version: 1,
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
      { numRuns: 1_000 },
    );
  });

  it('counts nothing twice when a worker crashes after persisting a state and the event is delivered again', () => {
    fc.assert(fc.property(spend, (history) => checkEveryCrash(POLICY, history)), { numRuns: 250 });
    fc.assert(fc.property(eventStream(seedEventBody, 1, 12), (history) => checkEveryCrash(SEED_STOP_POLICY, history)), { numRuns: 250 });
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
