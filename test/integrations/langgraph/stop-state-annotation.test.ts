import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { MAX_AGENT_STEPS } from '../../../src/core/stop-policy.js';
import { routeStop, STOP_ROUTES, type StopSignal } from '../../../src/integrations/langgraph/route-stop.js';
import { StopStateAnnotation } from '../../../src/integrations/langgraph/stop-state-annotation.js';

const State = Annotation.Root({
  ...StopStateAnnotation.spec,
  outcome: Annotation<string>({ reducer: (_, next) => next, default: () => 'running' }),
  trail: Annotation<string[]>({ reducer: (left, right) => left.concat(right), default: () => [] }),
});

interface Turn {
  readonly signal: StopSignal;
  readonly testsPass: boolean;
}

/** A real compiled graph: a turn node that plays a script, routed by routeStop to one of four exit nodes. */
function buildGraph(script: readonly Turn[]) {
  return new StateGraph(State)
    .addNode('turn', (state) => {
      const turn = script[state.steps] ?? { signal: 'continue', testsPass: false };
      return { steps: state.steps + 1, signal: turn.signal, verified: turn.testsPass, trail: [`turn ${state.steps + 1}: ${turn.signal}`] };
    })
    .addNode('limit', () => ({ outcome: 'limit' }))
    .addNode('success', () => ({ outcome: 'success' }))
    .addNode('give_up', () => ({ outcome: 'gave_up' }))
    .addNode('human', () => ({ outcome: 'need_help' }))
    .addEdge(START, 'turn')
    .addConditionalEdges('turn', routeStop, [...STOP_ROUTES])
    .addEdge('limit', END)
    .addEdge('success', END)
    .addEdge('give_up', END)
    .addEdge('human', END)
    .compile();
}

describe('StopStateAnnotation with routeStop in a compiled StateGraph', () => {
  it('reaches success only on a verified done, going round again on an unverified one', async () => {
    const graph = buildGraph([
      { signal: 'continue', testsPass: false },
      { signal: 'done', testsPass: false },
      { signal: 'done', testsPass: true },
    ]);
    const final = await graph.invoke({ maxSteps: 10 });
    expect(final).toMatchObject({ outcome: 'success', steps: 3, signal: 'done', verified: true });
    expect(final.trail).toEqual(['turn 1: continue', 'turn 2: done', 'turn 3: done']);
  });

  it('reaches limit at maxSteps', async () => {
    const final = await buildGraph([]).invoke({ maxSteps: 4 });
    expect(final).toMatchObject({ outcome: 'limit', steps: 4 });
  });

  it('reaches give_up', async () => {
    const final = await buildGraph([{ signal: 'continue', testsPass: false }, { signal: 'give_up', testsPass: false }]).invoke({ maxSteps: 10 });
    expect(final).toMatchObject({ outcome: 'gave_up', steps: 2 });
  });

  it('reaches human on need_help', async () => {
    const final = await buildGraph([{ signal: 'need_help', testsPass: false }]).invoke({ maxSteps: 10 });
    expect(final).toMatchObject({ outcome: 'need_help', steps: 1 });
  });

  it('checks the limit before a verified done on the last allowed turn', async () => {
    const final = await buildGraph([{ signal: 'continue', testsPass: false }, { signal: 'done', testsPass: true }]).invoke({ maxSteps: 2 });
    expect(final).toMatchObject({ outcome: 'limit', steps: 2 });
  });

  it('has the documented defaults', async () => {
    let seen: unknown;
    const graph = new StateGraph(StopStateAnnotation)
      .addNode('look', (state) => {
        seen = { ...state };
        return { steps: state.steps + 1 };
      })
      .addEdge(START, 'look')
      .addEdge('look', END)
      .compile();
    expect(await graph.invoke({})).toEqual({ steps: 1, maxSteps: MAX_AGENT_STEPS, signal: 'continue', verified: false });
    expect(seen).toEqual({ steps: 0, maxSteps: MAX_AGENT_STEPS, signal: 'continue', verified: false });
    expect(seen).not.toHaveProperty('signalStep');
  });

  it('keeps an old signal when a turn returns none, and the step stamp makes the router ignore it', async () => {
    const routes: string[] = [];
    type Update = Partial<typeof State.State>;
    const turns: ((steps: number) => Update)[] = [
      // turn 1: the model says done, the tests fail
      (steps) => ({ steps, signal: 'done', verified: false, signalStep: steps }),
      // turn 2: only tool calls; the tests it ran now pass
      (steps) => ({ steps, verified: true }),
      // turn 3: only tool calls, and a node that writes the signal channel as undefined
      (steps) => ({ steps, signal: undefined as unknown as StopSignal }),
      // turn 4: the model says done, verified
      (steps) => ({ steps, signal: 'done', verified: true, signalStep: steps }),
    ];
    const graph = new StateGraph(State)
      .addNode('turn', (state) => (turns[state.steps] ?? ((steps: number) => ({ steps })))(state.steps + 1))
      .addNode('limit', () => ({ outcome: 'limit' }))
      .addNode('success', () => ({ outcome: 'success' }))
      .addNode('give_up', () => ({ outcome: 'gave_up' }))
      .addNode('human', () => ({ outcome: 'need_help' }))
      .addEdge(START, 'turn')
      .addConditionalEdges(
        'turn',
        (state) => {
          const route = routeStop(state);
          routes.push(`${state.steps}: signal ${String(state.signal)} from step ${String(state.signalStep)}, verified ${state.verified} -> ${route}`);
          return route;
        },
        [...STOP_ROUTES],
      )
      .addEdge('limit', END)
      .addEdge('success', END)
      .addEdge('give_up', END)
      .addEdge('human', END)
      .compile();
    const final = await graph.invoke({ maxSteps: 10 });
    expect(routes).toEqual([
      '1: signal done from step 1, verified false -> turn',
      // LangGraph kept turn 1's "done": without the stamp this would be a success nobody claimed
      '2: signal done from step 1, verified true -> turn',
      '3: signal undefined from step 1, verified true -> turn',
      '4: signal done from step 4, verified true -> success',
    ]);
    expect(final).toMatchObject({ outcome: 'success', steps: 4 });
  });

  it('fails the run instead of routing a malformed signal', async () => {
    const graph = new StateGraph(StopStateAnnotation)
      .addNode('turn', () => ({ signal: 'finished' as StopSignal }))
      .addNode('success', () => ({}))
      .addEdge(START, 'turn')
      .addConditionalEdges('turn', routeStop, ['turn', 'success'])
      .addEdge('success', END)
      .compile();
    await expect(graph.invoke({})).rejects.toThrow(/state.signal must be one of/);
  });
});
