import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STOP_EXITS, type StopDecision } from '../../../src/core/policy/stop-decision.js';
import { routeOf, routeStop, STOP_ROUTES, type RouteStopState, type StopRoute } from '../../../src/integrations/langgraph/route-stop.js';

type Signal = RouteStopState['signal'];
const base: RouteStopState = { steps: 2, maxSteps: 10, signal: 'continue', verified: false };

/** The table routeStop documents, written out plainly: the reference the engine's answer is checked against. */
function expectedRoute(state: RouteStopState): StopRoute {
  if (state.steps >= state.maxSteps) return 'limit';
  const current = state.signalStep === undefined || state.signalStep === null || state.signalStep === state.steps;
  const signal = current ? (state.signal ?? 'continue') : 'continue';
  if (signal === 'done') return current && state.verified === true ? 'success' : 'turn';
  if (signal === 'give_up') return 'give_up';
  if (signal === 'need_help') return 'human';
  return 'turn';
}

const signals = fc.constantFrom<Signal>('continue', 'done', 'give_up', 'need_help', null, undefined);

describe('routeStop', () => {
  it.each([
    [{ signal: 'continue', verified: false }, 'turn'],
    [{ signal: 'continue', verified: true }, 'turn'],
    [{ signal: 'done', verified: true }, 'success'],
    [{ signal: 'done', verified: false }, 'turn'],
    [{ signal: 'give_up', verified: false }, 'give_up'],
    [{ signal: 'give_up', verified: true }, 'give_up'],
    [{ signal: 'need_help', verified: false }, 'human'],
  ] as const)('routes %o to %s', (fields, route) => {
    expect(routeStop({ ...base, ...fields })).toBe(route);
  });

  it('routes every state as its table says: the limit first, success only on a current verified done', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 50 }),
        fc.nat(),
        signals,
        fc.option(fc.boolean(), { nil: undefined }),
        fc.boolean(),
        (maxSteps, steps, back, signal, verified, stamped) => {
          const state: RouteStopState = { steps, maxSteps, signal, verified, ...(stamped ? { signalStep: steps - (back % (steps + 1)) } : {}) };
          const route = routeStop(state);
          expect(route).toBe(expectedRoute(state));
          expect(STOP_ROUTES).toContain(route);
          if (steps >= maxSteps) expect(route).toBe('limit');
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('reads a turn that set no signal as continue, and an absent verified as false', () => {
    for (const signal of [undefined, null]) {
      expect(routeStop({ steps: 2, maxSteps: 10, signal, verified: false })).toBe('turn');
      expect(routeStop({ steps: 2, maxSteps: 10, signal })).toBe('turn');
      expect(routeStop({ steps: 10, maxSteps: 10, signal })).toBe('limit');
    }
    expect(routeStop({ steps: 2, maxSteps: 10, signal: 'done' })).toBe('turn');
    expect(routeStop({ steps: 2, maxSteps: 10, signal: 'done', verified: null })).toBe('turn');
  });

  it('reads a signal stamped with an earlier step as no signal, and one stamped with this step as it is', () => {
    expect(routeStop({ ...base, signal: 'done', verified: true, signalStep: 1 })).toBe('turn');
    expect(routeStop({ ...base, signal: 'give_up', signalStep: 0 })).toBe('turn');
    expect(routeStop({ ...base, signal: 'done', verified: true, signalStep: 2 })).toBe('success');
    expect(routeStop({ ...base, signal: 'need_help', signalStep: 2 })).toBe('human');
  });

  it('rejects a malformed state with the field named', () => {
    const bad: [unknown, RegExp][] = [
      [null, /stop state must be an object, got null/],
      [{ ...base, steps: -1 }, /state.steps must be a non-negative integer, got -1/],
      [{ ...base, steps: '3' }, /state.steps must be a non-negative integer, got "3"/],
      [{ ...base, maxSteps: 0 }, /state.maxSteps must be a positive integer, got 0/],
      [{ ...base, maxSteps: 2.5 }, /state.maxSteps must be a positive integer, got 2.5/],
      [{ ...base, signal: 'finished' }, /state.signal must be one of continue, done, give_up, need_help \(or absent\), got "finished"/],
      [{ ...base, signal: 'DONE' }, /state.signal must be one of .*got "DONE"/],
      [{ ...base, signal: 1 }, /state.signal must be one of .*got 1/],
      [{ ...base, signalStep: 3 }, /state.signalStep must be an integer from 0 to state.steps \(2\), got 3/],
      [{ ...base, signalStep: 1.5 }, /state.signalStep must be an integer/],
      [{ ...base, verified: 'yes' }, /state.verified must be a boolean, got "yes"/],
    ];
    for (const [state, message] of bad) expect(() => routeStop(state as RouteStopState)).toThrow(message);
  });

  it('lists each destination once: turn and one node per exit', () => {
    expect([...STOP_ROUTES].sort()).toEqual(['failed', 'give_up', 'human', 'limit', 'success', 'turn']);
    expect(Object.isFrozen(STOP_ROUTES)).toBe(true);
  });
});

describe('routeOf', () => {
  const values = { step: 3 };
  const of = (decision: Record<string, unknown>) => routeOf({ reason: 'r', values, trace: [], ...decision } as unknown as StopDecision);

  it('maps each decision to its route: continue and retry to turn, a stop to the node of its exit', () => {
    expect(of({ kind: 'continue', rule: null })).toBe('turn');
    expect(of({ kind: 'continue', rule: 'working' })).toBe('turn');
    expect(of({ kind: 'retry', rule: 'tests_failed', feedback: { message: 'Not done yet.' } })).toBe('turn');
    expect(STOP_EXITS.map((exit) => [exit, of({ kind: 'stop', rule: 'x', exit })])).toEqual([
      ['success', 'success'],
      ['limit', 'limit'],
      ['gave_up', 'give_up'],
      ['need_help', 'human'],
      ['failed', 'failed'],
    ]);
  });

  it('refuses what is not a decision instead of routing it', () => {
    expect(() => routeOf(null as unknown as StopDecision)).toThrow(/a stop decision must be an object, got null/);
    expect(() => of({ kind: 'halt' })).toThrow(/kind must be continue, retry or stop, got "halt"/);
    expect(() => of({ kind: 'stop', rule: 'x', exit: 'done' })).toThrow(/exit must be one of .* got "done"/);
  });
});

/** The fields routeStop reads, as graph channels; a turn that sets no signal leaves the last one in place. */
const RouteState = Annotation.Root({
  steps: Annotation<number>({ reducer: (_, next) => next, default: () => 0 }),
  maxSteps: Annotation<number>({ reducer: (_, next) => next, default: () => 10 }),
  signal: Annotation<Signal>({ reducer: (_, next) => next, default: () => undefined }),
  verified: Annotation<boolean>({ reducer: (_, next) => next, default: () => false }),
  signalStep: Annotation<number | null>({ reducer: (_, next) => next, default: () => null }),
  outcome: Annotation<string>({ reducer: (_, next) => next, default: () => 'running' }),
  trail: Annotation<string[]>({ reducer: (left, right) => left.concat(right), default: () => [] }),
});
type Update = Partial<typeof RouteState.State>;

/** A real compiled graph: a turn node that plays a script, routed by routeStop to one node per route. */
function buildGraph(turns: readonly ((steps: number) => Update)[], onRoute?: (state: typeof RouteState.State, route: StopRoute) => void) {
  const exit = (outcome: string) => () => ({ outcome });
  return new StateGraph(RouteState)
    .addNode('turn', (state) => {
      const steps = state.steps + 1;
      const update: Update = (turns[state.steps] ?? (() => ({})))(steps);
      return { steps, trail: [`turn ${steps}: ${update.signal ?? 'no signal'}`], ...update };
    })
    .addNode('success', exit('success'))
    .addNode('limit', exit('limit'))
    .addNode('give_up', exit('gave_up'))
    .addNode('human', exit('need_help'))
    .addNode('failed', exit('failed'))
    .addEdge(START, 'turn')
    .addConditionalEdges(
      'turn',
      (state) => {
        const route = routeStop(state);
        onRoute?.(state, route);
        return route;
      },
      [...STOP_ROUTES],
    )
    .addEdge('success', END)
    .addEdge('limit', END)
    .addEdge('give_up', END)
    .addEdge('human', END)
    .addEdge('failed', END)
    .compile();
}

const say = (signal: NonNullable<Signal>, verified = false) => (steps: number): Update => ({ signal, verified, signalStep: steps });

describe('routeStop in a compiled StateGraph', () => {
  it('reaches success only on a verified done, going round again on an unverified one', async () => {
    const final = await buildGraph([say('continue'), say('done'), say('done', true)]).invoke({});
    expect(final).toMatchObject({ outcome: 'success', steps: 3, signal: 'done', verified: true });
    expect(final.trail).toEqual(['turn 1: continue', 'turn 2: done', 'turn 3: done']);
  });

  it('reaches limit at maxSteps, checked before a verified done on the last allowed turn', async () => {
    expect(await buildGraph([]).invoke({ maxSteps: 4 })).toMatchObject({ outcome: 'limit', steps: 4 });
    expect(await buildGraph([say('continue'), say('done', true)]).invoke({ maxSteps: 2 })).toMatchObject({ outcome: 'limit', steps: 2 });
  });

  it('reaches give_up and human', async () => {
    expect(await buildGraph([say('continue'), say('give_up')]).invoke({})).toMatchObject({ outcome: 'gave_up', steps: 2 });
    expect(await buildGraph([say('need_help')]).invoke({})).toMatchObject({ outcome: 'need_help', steps: 1 });
  });

  it('keeps an old signal when a turn returns none, and the step stamp makes the router ignore it', async () => {
    const routes: string[] = [];
    const final = await buildGraph(
      [
        // turn 1: the model says done, the tests fail
        say('done'),
        // turn 2: only tool calls; the tests it ran now pass
        () => ({ verified: true }),
        // turn 3: only tool calls, and a node that writes the signal channel as undefined
        () => ({ signal: undefined }),
        // turn 4: the model says done, verified
        say('done', true),
      ],
      (state, route) => routes.push(`${state.steps}: signal ${String(state.signal)} from step ${String(state.signalStep)}, verified ${state.verified} -> ${route}`),
    ).invoke({});
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
    const graph = buildGraph([() => ({ signal: 'finished' as Signal })]);
    await expect(graph.invoke({})).rejects.toThrow(/state.signal must be one of/);
  });
});
