import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { parseStopPolicy } from '../../../src/core/policy/parse-stop-policy.js';
import { SEED_STOP_POLICY } from '../../../src/core/policy/seed-stop-policy.js';
import type { StopDecision } from '../../../src/core/policy/stop-decision.js';
import type { StopEvent } from '../../../src/core/policy/stop-event.js';
import { STOP_POLICY_VERSION } from '../../../src/core/policy/stop-policy-document.js';
import { decideStop } from '../../../src/integrations/langgraph/decide-stop.js';
import { routeDecision } from '../../../src/integrations/langgraph/route-decision.js';
import { STOP_ROUTES } from '../../../src/integrations/langgraph/route-stop.js';
import { StopEngineAnnotation } from '../../../src/integrations/langgraph/stop-engine-annotation.js';

const PASS = { passed: true, failed: [], ran: 12 } as const;

/** A policy with a rule for every exit: each route of STOP_ROUTES can be reached. */
const policy = parseStopPolicy({
  version: STOP_POLICY_VERSION,
  name: 'every-exit',
  rules: [
    { id: 'provider_failed', when: { provider: 'failed' }, then: { kind: 'stop', exit: 'failed', reason: 'provider_failed' } },
    { id: 'cap', when: { limit: { of: 'steps', max: 4 } }, then: { kind: 'stop', exit: 'limit', reason: 'cap' } },
    { id: 'verified', when: { all: [{ signal: 'done' }, { tests: 'passed' }] }, then: { kind: 'stop', exit: 'success', reason: 'verified' } },
    { id: 'not_verified', when: { signal: 'done' }, then: { kind: 'retry', reason: 'not_verified' } },
    { id: 'gave_up', when: { signal: 'give_up' }, then: { kind: 'stop', exit: 'gave_up', reason: 'gave_up' } },
    { id: 'need_help', when: { signal: 'need_help' }, then: { kind: 'stop', exit: 'need_help', reason: 'need_help' } },
  ],
});

const State = Annotation.Root({
  ...StopEngineAnnotation.spec,
  visited: Annotation<string[]>({ reducer: (left, right) => left.concat(right), default: () => [] }),
});

/** A real graph: `turn` records the next scripted event, `stop` decides it, routeDecision picks the node. */
function graphOf(script: readonly Omit<StopEvent, 'step'>[]) {
  const exit = (route: string) => () => ({ visited: [route] });
  return new StateGraph(State)
    .addNode('turn', (state) => {
      const step = (state.stopState?.step ?? 0) + 1;
      return { stopEvent: { step, ...(script[step - 1] ?? {}) }, visited: [`turn ${step}`] };
    })
    .addNode('stop', (state) => decideStop(policy, state))
    .addNode('success', exit('success'))
    .addNode('limit', exit('limit'))
    .addNode('give_up', exit('give_up'))
    .addNode('human', exit('human'))
    .addNode('failed', exit('failed'))
    .addEdge(START, 'turn')
    .addEdge('turn', 'stop')
    .addConditionalEdges('stop', routeDecision, [...STOP_ROUTES])
    .addEdge('success', END)
    .addEdge('limit', END)
    .addEdge('give_up', END)
    .addEdge('human', END)
    .addEdge('failed', END)
    .compile();
}

describe('routeDecision in a compiled StateGraph', () => {
  it.each([
    ['success', [{}, { signal: { kind: 'done', note: 'fixed' }, tests: PASS }]],
    ['limit', []],
    ['give_up', [{ signal: { kind: 'give_up', note: 'the fixture host is down' } }]],
    ['human', [{ signal: { kind: 'need_help', note: 'which locale?' } }]],
    ['failed', [{}, { provider: 'failed' }]],
  ] as const)('reaches %s', async (route, script) => {
    const final = await graphOf(script as readonly Omit<StopEvent, 'step'>[]).invoke({});
    expect(final.visited.at(-1)).toBe(route);
    expect(final.stopDecision).toMatchObject({ kind: 'stop', values: { step: final.stopState?.step } });
  });

  it('goes back to turn on a retry and on a continue', async () => {
    const final = await graphOf([{ signal: { kind: 'done', note: 'fixed?' }, tests: { passed: false, failed: ['a'], ran: 3 } }, {}, { signal: { kind: 'done', note: 'fixed' }, tests: PASS }]).invoke({});
    expect(final.visited).toEqual(['turn 1', 'turn 2', 'turn 3', 'success']);
  });

  it('fails the run instead of routing a stale decision', async () => {
    const graph = new StateGraph(State)
      .addNode('turn', (state) => {
        const step = (state.stopState?.step ?? 0) + 1;
        const update = decideStop(policy, state, { step });
        // A node that writes the new state and keeps the old decision.
        return step === 1 ? update : { stopState: update.stopState };
      })
      .addNode('limit', () => ({}))
      .addEdge(START, 'turn')
      .addConditionalEdges('turn', routeDecision, ['turn', 'limit'])
      .addEdge('limit', END)
      .compile();
    await expect(graph.invoke({})).rejects.toThrow(/the stop decision is for step 1, the stop state is at step 2: write both from one decideStop/);
  });
});

describe('routeDecision', () => {
  it('routes the decision of the step in the stop state', () => {
    const done = decideStop(SEED_STOP_POLICY, {}, { step: 1, tests: PASS, probabilities: { a: 0.95 }, output: 'done' });
    expect(routeDecision(done)).toBe('success');
    const retry = decideStop(SEED_STOP_POLICY, {}, { step: 1, tests: { passed: false, failed: [], ran: 0 }, output: 'no tests' });
    expect(routeDecision(retry)).toBe('turn');
  });

  it('refuses to route without a decision, or with a decision of another step than the state', () => {
    expect(() => routeDecision({ stopState: null, stopDecision: null })).toThrow(/no stop decision in the graph state/);
    expect(() => routeDecision({})).toThrow(/no stop decision in the graph state/);
    const first = decideStop(SEED_STOP_POLICY, {}, { step: 1, tests: PASS, probabilities: { a: 0.95 }, output: 'done' });
    const second = decideStop(SEED_STOP_POLICY, first, { step: 2, tests: PASS, probabilities: { a: 0.1 }, output: 'undone' });
    expect(() => routeDecision({ stopState: second.stopState, stopDecision: first.stopDecision })).toThrow(
      /the stop decision is for step 1, the stop state is at step 2: write both from one decideStop/,
    );
    expect(() => routeDecision({ stopState: null, stopDecision: first.stopDecision })).toThrow(/stop state is at step undefined/);
    expect(() => routeDecision({ stopState: first.stopState, stopDecision: { kind: 'stop' } as unknown as StopDecision })).toThrow(/decision is for step undefined/);
  });

  it('refuses a decision that is not one, naming what is wrong', () => {
    const { stopState, stopDecision } = decideStop(SEED_STOP_POLICY, {}, { step: 1, tests: PASS, probabilities: { a: 0.95 }, output: 'done' });
    expect(() => routeDecision({ stopState, stopDecision: { ...stopDecision, kind: 'halt' } as unknown as StopDecision })).toThrow(/kind must be continue, retry or stop, got "halt"/);
    expect(() => routeDecision({ stopState, stopDecision: { ...stopDecision, exit: 'done' } as unknown as StopDecision })).toThrow(/exit must be one of success, limit, gave_up, need_help, failed, got "done"/);
  });
});
