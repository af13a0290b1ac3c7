import { describe, expect, it } from 'vitest';
import { SEED_STOP_POLICY } from '../../../src/core/policy/seed-stop-policy.js';
import type { StopDecision } from '../../../src/core/policy/stop-decision.js';
import { decideStop } from '../../../src/integrations/langgraph/decide-stop.js';
import { routeDecision } from '../../../src/integrations/langgraph/route-decision.js';

const PASS = { passed: true, failed: [], ran: 12 } as const;

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
});
