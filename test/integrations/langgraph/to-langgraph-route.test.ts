import { describe, expect, it } from 'vitest';
import type { StopDecision } from '../../../src/core/policy/stop-decision.js';
import { STOP_EXITS } from '../../../src/core/stop-outcome.js';
import { STOP_ROUTES } from '../../../src/integrations/langgraph/route-stop.js';
import { DECISION_ROUTES, toLangGraphRoute } from '../../../src/integrations/langgraph/to-langgraph-route.js';

const base = { reason: 'r', values: { step: 3 }, trace: [] };

describe('toLangGraphRoute', () => {
  it('maps each decision to its route, one row of the table each', () => {
    const rows: [StopDecision, string][] = [
      [{ ...base, kind: 'continue', rule: null }, 'turn'],
      [{ ...base, kind: 'continue', rule: 'working' }, 'turn'],
      [{ ...base, kind: 'retry', rule: 'tests_failed', feedback: { message: 'Not done yet.' } }, 'turn'],
      [{ ...base, kind: 'stop', rule: 'done', exit: 'success' }, 'success'],
      [{ ...base, kind: 'stop', rule: 'cap', exit: 'limit' }, 'limit'],
      [{ ...base, kind: 'stop', rule: 'gave_up', exit: 'gave_up' }, 'give_up'],
      [{ ...base, kind: 'stop', rule: 'help', exit: 'need_help' }, 'human'],
      [{ ...base, kind: 'stop', rule: 'broken', exit: 'failed' }, 'failed'],
    ];
    for (const [decision, route] of rows) expect(toLangGraphRoute(decision)).toBe(route);
    const stops = STOP_EXITS.map((exit) => toLangGraphRoute({ ...base, kind: 'stop', rule: 'x', exit }));
    expect(new Set(stops).size).toBe(STOP_EXITS.length);
  });

  it('lists each destination once: the five of routeStop and failed', () => {
    expect([...DECISION_ROUTES].sort()).toEqual(['failed', 'give_up', 'human', 'limit', 'success', 'turn']);
    expect(DECISION_ROUTES.slice(0, STOP_ROUTES.length)).toEqual(STOP_ROUTES);
    expect(Object.isFrozen(DECISION_ROUTES)).toBe(true);
  });

  it('refuses what is not a decision instead of routing it', () => {
    expect(() => toLangGraphRoute(null as unknown as StopDecision)).toThrow(/a stop decision must be an object, got null/);
    expect(() => toLangGraphRoute({ ...base, kind: 'halt' } as unknown as StopDecision)).toThrow(/kind must be continue, retry or stop, got "halt"/);
    expect(() => toLangGraphRoute({ ...base, kind: 'stop', rule: 'x', exit: 'done' } as unknown as StopDecision)).toThrow(/exit must be one of .* got "done"/);
  });
});
