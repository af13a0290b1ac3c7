import { Annotation, StateGraph } from '@langchain/langgraph';
import { describe, expectTypeOf, it } from 'vitest';
import type { StopDecision, StopState as EngineStopState, StopEvent } from '../../../src/index.js';
import {
  decideStop,
  routeDecision,
  routeStop,
  STOP_ROUTES,
  StopEngineAnnotation,
  type RouteStopState,
  type StopEngineState,
  type StopRoute,
} from '../../../src/integrations/langgraph/index.js';
import { SEED_STOP_POLICY } from '../../../src/index.js';

describe('the types of stopwise/langgraph', () => {
  it('routeStop reads RouteStopState, not the engine state; the engine state lives in the channels of StopEngineAnnotation', () => {
    expectTypeOf<RouteStopState>().not.toEqualTypeOf<EngineStopState>();
    expectTypeOf<StopEngineState['stopState']>().toEqualTypeOf<EngineStopState | null>();
    expectTypeOf<StopEngineState['stopDecision']>().toEqualTypeOf<StopDecision | null>();
    expectTypeOf<StopEngineState['stopEvent']>().toEqualTypeOf<StopEvent | null>();
    expectTypeOf(routeStop).returns.toEqualTypeOf<StopRoute>();
    expectTypeOf(STOP_ROUTES).toEqualTypeOf<readonly StopRoute[]>();
    expectTypeOf<StopRoute>().toEqualTypeOf<'turn' | 'limit' | 'success' | 'give_up' | 'human' | 'failed'>();
  });

  it('routeStop is a conditional edge of a graph whose state has its fields', () => {
    const State = Annotation.Root({
      steps: Annotation<number>(),
      maxSteps: Annotation<number>(),
      signal: Annotation<'continue' | 'done' | 'give_up' | 'need_help' | undefined>(),
      verified: Annotation<boolean>(),
    });
    const node = () => ({});
    new StateGraph(State)
      .addNode('turn', node)
      .addNode('success', node)
      .addNode('limit', node)
      .addNode('give_up', node)
      .addNode('human', node)
      .addNode('failed', node)
      .addConditionalEdges('turn', routeStop, [...STOP_ROUTES]);
    // @ts-expect-error a state without maxSteps is not one routeStop can read
    routeStop({ steps: 1 });
  });

  it('decideStop writes the channels routeDecision reads', () => {
    const State = Annotation.Root({ ...StopEngineAnnotation.spec });
    const graph = new StateGraph(State)
      .addNode('stop', (state) => decideStop(SEED_STOP_POLICY, state))
      .addNode('turn', () => ({}))
      .addNode('success', () => ({}))
      .addNode('limit', () => ({}))
      .addNode('give_up', () => ({}))
      .addNode('human', () => ({}))
      .addNode('failed', () => ({}))
      .addConditionalEdges('stop', routeDecision, [...STOP_ROUTES]);
    expectTypeOf(graph).toBeObject();
    expectTypeOf(decideStop).returns.toEqualTypeOf<{ readonly stopState: EngineStopState; readonly stopDecision: StopDecision }>();
  });
});
