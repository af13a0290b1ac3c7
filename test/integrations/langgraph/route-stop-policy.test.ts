import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide } from '../../../src/core/policy/decide.js';
import type { StopEvent } from '../../../src/core/policy/stop-event.js';
import { initialStopState } from '../../../src/core/policy/stop-state.js';
import { routeStop, type RouteStopState, type StopSignal } from '../../../src/integrations/langgraph/route-stop.js';
import { ROUTE_STOP_RULE_IDS, routeStopPolicy } from '../../../src/integrations/langgraph/route-stop-policy.js';
import { toLangGraphRoute } from '../../../src/integrations/langgraph/to-langgraph-route.js';

/** The turn a routeStop state describes, as an event for decide: a stale signal is none. */
function eventOf(state: RouteStopState): StopEvent {
  const current = state.signalStep === undefined || state.signalStep === null || state.signalStep === state.steps;
  const signal = current ? (state.signal ?? 'continue') : 'continue';
  return {
    step: state.steps,
    ...(signal === 'continue' ? {} : { signal: { kind: signal, note: 'said so' } }),
    ...(state.verified === undefined || state.verified === null ? {} : { verification: { ok: state.verified } }),
  };
}

const signals = fc.constantFrom<StopSignal | null | undefined>('continue', 'done', 'give_up', 'need_help', null, undefined);

describe('routeStopPolicy: the rules of routeStop as a policy document', () => {
  it('has the four rules of routeStop, in order, and refuses a step cap that is not a positive integer', () => {
    expect(routeStopPolicy(10).rules.map((rule) => rule.id)).toEqual([...ROUTE_STOP_RULE_IDS]);
    expect(routeStopPolicy(10).rules[0]).toEqual({ id: 'max_steps', when: { limit: { of: 'steps', max: 10 } }, then: { kind: 'stop', exit: 'limit', reason: 'max_steps' } });
    for (const bad of [0, -1, 2.5, Number.NaN, '3']) expect(() => routeStopPolicy(bad as number)).toThrow(/maxSteps must be a positive integer/);
  });

  it('routes every state as decide with the preset does, projected by toLangGraphRoute', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 50 }), fc.nat(), signals, fc.option(fc.boolean(), { nil: undefined }), fc.boolean(), (maxSteps, steps, back, signal, verified, stamped) => {
        const state: RouteStopState = { steps, maxSteps, signal, verified, ...(stamped ? { signalStep: steps - (back % 2) * (back % steps) } : {}) };
        const policy = routeStopPolicy(maxSteps);
        const { decision } = decide(policy, initialStopState(policy), eventOf(state));
        expect(routeStop(state)).toBe(toLangGraphRoute(decision));
      }),
      { numRuns: 20_000 },
    );
  });

  it('names the rule that fired for each route', () => {
    const policy = routeStopPolicy(5);
    const ruleOf = (event: StopEvent) => decide(policy, initialStopState(policy), event).decision;
    expect(ruleOf({ step: 5, signal: { kind: 'done', note: '' }, verification: { ok: true } })).toMatchObject({ kind: 'stop', exit: 'limit', rule: 'max_steps' });
    expect(ruleOf({ step: 2, signal: { kind: 'done', note: '' }, verification: { ok: true } })).toMatchObject({ kind: 'stop', exit: 'success', rule: 'verified_done' });
    expect(ruleOf({ step: 2, signal: { kind: 'done', note: '' }, verification: { ok: false } })).toMatchObject({ kind: 'continue', rule: null });
    expect(ruleOf({ step: 2, signal: { kind: 'give_up', note: '' } })).toMatchObject({ kind: 'stop', exit: 'gave_up', rule: 'gave_up' });
    expect(ruleOf({ step: 2, signal: { kind: 'need_help', note: '' } })).toMatchObject({ kind: 'stop', exit: 'need_help', rule: 'need_help' });
  });
});
