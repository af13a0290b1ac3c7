import { Annotation, END, MemorySaver, START, StateGraph } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { decide, initialStopState } from '../../../src/core/policy/decide.js';
import { parseStopPolicy } from '../../../src/core/policy/parse-stop-policy.js';
import { SEED_STOP_POLICY } from '../../../src/core/policy/seed-stop-policy.js';
import type { StopEvent } from '../../../src/core/policy/stop-event.js';
import { STOP_POLICY_VERSION } from '../../../src/core/policy/stop-policy-document.js';
import { STOP_STATE_VERSION } from '../../../src/core/policy/stop-state.js';
import { decideStop } from '../../../src/integrations/langgraph/decide-stop.js';
import { routeDecision } from '../../../src/integrations/langgraph/route-decision.js';
import { STOP_ROUTES } from '../../../src/integrations/langgraph/route-stop.js';
import { StopEngineAnnotation, type StopEngineState } from '../../../src/integrations/langgraph/stop-engine-annotation.js';

const PASS = { passed: true, failed: [], ran: 12 } as const;
const FAIL = { passed: false, failed: ['auth > rejects expired token'], ran: 12 } as const;

const State = Annotation.Root({
  ...StopEngineAnnotation.spec,
  outcome: Annotation<string>({ reducer: (_, next) => next, default: () => 'running' }),
  prompts: Annotation<string[]>({ reducer: (left, right) => left.concat(right), default: () => [] }),
});

const nextStep = (state: Partial<StopEngineState>): number => (state.stopState?.step ?? 0) + 1;

/** One node per turn that does the work and decides in the same update, routed by routeDecision. */
function oneNodeGraph(turns: readonly Omit<StopEvent, 'step'>[], checkpointer?: MemorySaver) {
  const exit = (outcome: string) => () => ({ outcome });
  return new StateGraph(State)
    .addNode('turn', (state) => {
      const step = nextStep(state);
      const prompt = state.stopDecision?.kind === 'retry' ? state.stopDecision.feedback.message : 'Fix the expired-token check.';
      return { prompts: [prompt], ...decideStop(SEED_STOP_POLICY, state, { step, ...(turns[step - 1] ?? turns.at(-1)) }) };
    })
    .addNode('success', exit('success'))
    .addNode('limit', exit('limit'))
    .addNode('give_up', exit('gave_up'))
    .addNode('human', exit('need_help'))
    .addNode('failed', exit('failed'))
    .addEdge(START, 'turn')
    .addConditionalEdges('turn', routeDecision, [...STOP_ROUTES])
    .addEdge('success', END)
    .addEdge('limit', END)
    .addEdge('give_up', END)
    .addEdge('human', END)
    .addEdge('failed', END)
    .compile(checkpointer === undefined ? {} : { checkpointer });
}

describe('decideStop in a compiled StateGraph', () => {
  it('decides each turn with the seed preset, feeding a retry back into the next prompt, and ends on success', async () => {
    const final = await oneNodeGraph([
      { tests: FAIL, probabilities: { acceptanceCovered: 0.3 }, output: 'Read the token code.' },
      { tests: PASS, probabilities: { acceptanceCovered: 0.92, noOpenQuestions: 0.9 }, output: 'Fixed the expiry comparison.' },
    ]).invoke({});
    expect(final.outcome).toBe('success');
    expect(final.stopState).toMatchObject({ version: STOP_STATE_VERSION, step: 2, retries: 0 });
    expect(final.stopDecision).toMatchObject({ kind: 'stop', exit: 'success', rule: 'tests_and_criteria_passed' });
    expect(final.prompts).toEqual([
      'Fix the expired-token check.',
      '1 test failed: auth > rejects expired token. Fix it and run the tests again before you finish.',
    ]);
  });

  it('keeps the engine state in the checkpoint: the counters of a thread are the ones decide computed', async () => {
    const checkpointer = new MemorySaver();
    const turns = [{ tests: FAIL, probabilities: { acceptanceCovered: 0.3 }, output: 'Still failing.' }];
    const config = { configurable: { thread_id: 'stall' } };
    const final = await oneNodeGraph(turns, checkpointer).invoke({}, config);
    // The same failing output three times in a row is the seed preset's stall.
    expect(final).toMatchObject({ outcome: 'need_help', stopDecision: { rule: 'stalled' } });
    let state = initialStopState(SEED_STOP_POLICY);
    for (let step = 1; step <= 3; step++) state = decide(SEED_STOP_POLICY, state, { step, ...turns[0] }).state;
    const saved = await checkpointer.getTuple(config);
    expect(saved?.checkpoint.channel_values.stopState).toEqual(state);
    expect((await oneNodeGraph(turns, checkpointer).getState(config)).values.stopState).toEqual(state);
  });

  it('decides the event a node before it recorded, so a resume after that node runs only the decision', async () => {
    const policy = parseStopPolicy({
      version: STOP_POLICY_VERSION,
      rules: [{ id: 'budget', when: { limit: { of: 'cost', max: 1 } }, then: { kind: 'stop', exit: 'limit', reason: 'budget' } }],
    });
    let turnsRun = 0;
    const graph = new StateGraph(State)
      .addNode('turn', (state) => {
        turnsRun++;
        return { stopEvent: { step: nextStep(state), usage: { cost: 0.4 } } };
      })
      .addNode('stop', (state) => decideStop(policy, state))
      .addNode('limit', () => ({ outcome: 'limit' }))
      .addEdge(START, 'turn')
      .addEdge('turn', 'stop')
      .addConditionalEdges('stop', routeDecision, { turn: 'turn', limit: 'limit' })
      .addEdge('limit', END)
      .compile({ checkpointer: new MemorySaver(), interruptBefore: ['stop'] });
    const config = { configurable: { thread_id: 'two-nodes' } };
    await graph.invoke({}, config);
    // Held before each decision: the turn's event is in the checkpoint, the decision not made yet.
    expect((await graph.getState(config)).values).toMatchObject({ stopEvent: { step: 1 }, stopState: null, stopDecision: null });
    for (let resumes = 0; resumes < 10 && (await graph.getState(config)).next.length > 0; resumes++) await graph.invoke(null, config);
    const final = (await graph.getState(config)).values;
    expect(final).toMatchObject({ outcome: 'limit', stopState: { step: 3, totals: { cost: expect.closeTo(1.2, 10) } }, stopDecision: { rule: 'budget' } });
    expect(turnsRun).toBe(3);
  });
});

describe('decideStop', () => {
  it('starts from the initial state and returns the update for the two channels', () => {
    const event: StopEvent = { step: 1, tests: FAIL, probabilities: { acceptanceCovered: 0.2 }, output: 'x' };
    const update = decideStop(SEED_STOP_POLICY, {}, event);
    expect(Object.keys(update).sort()).toEqual(['stopDecision', 'stopState']);
    expect(update).toEqual((({ state, decision }) => ({ stopState: state, stopDecision: decision }))(decide(SEED_STOP_POLICY, initialStopState(SEED_STOP_POLICY), event)));
    expect(decideStop(SEED_STOP_POLICY, { stopState: null }, event)).toEqual(update);
  });

  it('decides state.stopEvent when no event is given', () => {
    const stopEvent: StopEvent = { step: 1, tests: PASS, probabilities: { a: 0.95 }, output: 'done' };
    expect(decideStop(SEED_STOP_POLICY, { stopEvent })).toEqual(decideStop(SEED_STOP_POLICY, {}, stopEvent));
    expect(decideStop(SEED_STOP_POLICY, { stopEvent }).stopDecision).toMatchObject({ kind: 'stop', exit: 'success' });
  });

  it('applies the event of the step already decided as a replay: the same update, nothing counted twice', () => {
    const event: StopEvent = { step: 1, tests: FAIL, probabilities: { acceptanceCovered: 0.2 }, output: 'x', usage: { cost: 0.5 } };
    const first = decideStop(SEED_STOP_POLICY, { stopState: null }, event);
    const again = decideStop(SEED_STOP_POLICY, { stopState: first.stopState }, event);
    expect(again.stopState).toBe(first.stopState);
    expect(again.stopState.totals.cost).toBe(0.5);
    expect(again.stopDecision).toEqual(first.stopDecision);
  });

  it('refuses a turn without an event, and an event decide refuses', () => {
    expect(() => decideStop(SEED_STOP_POLICY, { stopState: null, stopEvent: null })).toThrow(/no stop event to decide/);
    expect(() => decideStop(SEED_STOP_POLICY, {})).toThrow(/no stop event to decide/);
    const { stopState } = decideStop(SEED_STOP_POLICY, {}, { step: 2, tests: PASS, probabilities: { a: 0.9 }, output: 'y' });
    expect(() => decideStop(SEED_STOP_POLICY, { stopState }, { step: 1, tests: PASS, probabilities: { a: 0.9 } })).toThrow(/not after the last step decided/);
    expect(() => decideStop(SEED_STOP_POLICY, { stopState }, { step: 2, tests: FAIL, probabilities: { a: 0.9 } })).toThrow(/already decided with a different event/);
    expect(() => decideStop(SEED_STOP_POLICY, {}, { step: 1, tests: PASS, output: 'y' })).toThrow(/needs criterion probabilities/);
  });
});
