import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { routeStop, STOP_ROUTES, type StopState } from '../../../src/integrations/langgraph/route-stop.js';

const base: StopState = { steps: 2, maxSteps: 10, signal: 'continue', verified: false };

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

  it('checks the limit first, whatever the signal', () => {
    const signals = fc.constantFrom('continue', 'done', 'give_up', 'need_help') as fc.Arbitrary<StopState['signal']>;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 0, max: 60 }), signals, fc.boolean(), (maxSteps, steps, signal, verified) => {
        const route = routeStop({ steps, maxSteps, signal, verified });
        if (steps >= maxSteps) expect(route).toBe('limit');
        else expect(route).not.toBe('limit');
        expect(STOP_ROUTES).toContain(route);
      }),
    );
  });

  it('never routes an unverified done to success', () => {
    expect(routeStop({ ...base, signal: 'done', verified: false })).not.toBe('success');
  });

  it('rejects a malformed state with the field named', () => {
    const bad: [unknown, RegExp][] = [
      [null, /stop state must be an object, got null/],
      [{ ...base, steps: -1 }, /state.steps must be a non-negative integer, got -1/],
      [{ ...base, steps: '3' }, /state.steps must be a non-negative integer, got "3"/],
      [{ ...base, maxSteps: 0 }, /state.maxSteps must be a positive integer, got 0/],
      [{ ...base, signal: 'finished' }, /state.signal must be one of continue, done, give_up, need_help \(or absent\), got "finished"/],
      [{ ...base, signal: 'DONE' }, /state.signal must be one of .*got "DONE"/],
      [{ ...base, signal: 1 }, /state.signal must be one of .*got 1/],
      [{ ...base, signalStep: 3 }, /state.signalStep must be an integer from 0 to state.steps \(2\), got 3/],
      [{ ...base, signalStep: 1.5 }, /state.signalStep must be an integer/],
      [{ ...base, verified: 'yes' }, /state.verified must be a boolean, got "yes"/],
    ];
    for (const [state, message] of bad) expect(() => routeStop(state as StopState)).toThrow(message);
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
    const signals = fc.constantFrom('continue', 'done', 'give_up', 'need_help', undefined, null) as fc.Arbitrary<StopState['signal']>;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 60 }), fc.nat(), signals, fc.boolean(), (maxSteps, steps, back, signal, verified) => {
        const signalStep = back % steps;
        expect(['turn', 'limit']).toContain(routeStop({ steps, maxSteps, signal, verified, signalStep }));
      }),
    );
  });

  it('lists each destination once', () => {
    expect([...STOP_ROUTES].sort()).toEqual(['give_up', 'human', 'limit', 'success', 'turn']);
    expect(Object.isFrozen(STOP_ROUTES)).toBe(true);
  });
});
