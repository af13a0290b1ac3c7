import { afterEach, describe, expect, it } from 'vitest';
import { decideCompletionAction, decideFromEvidence } from '../../src/core/decide-completion-action.js';
import { decide } from '../../src/core/policy/decide.js';
import { SEED_STOP_POLICY } from '../../src/core/policy/seed-stop-policy.js';
import type { StopDecision } from '../../src/core/policy/stop-decision.js';
import { initialStopState } from '../../src/core/policy/stop-state.js';
import { currentStopObserver, notifyStopEnd, setStopObserver, type StopRunEnd } from '../../src/core/stop-observer.js';

afterEach(() => {
  setStopObserver(undefined);
});

const PASS = { passed: true, failed: [], ran: 3 };

describe('the stop observer', () => {
  it('sees each decision of decide with its step, totals and policy name, and each seed-table decision', () => {
    const seen: [string, number, number | undefined, string | undefined][] = [];
    setStopObserver({ decision: (decision, step, totals, policy) => void seen.push([decision.reason, step, totals?.decisionModelCalls, policy]) });
    decide(SEED_STOP_POLICY, initialStopState(SEED_STOP_POLICY), { step: 1, tests: PASS, probabilities: { a: 0.95 }, usage: { decisionModelCalls: 1 } });
    decideCompletionAction({ a: 0.5 }, PASS, { step: 2, recentFingerprints: [] });
    expect(decideFromEvidence(PASS, { step: 3, recentFingerprints: [] })).toBeUndefined();
    expect(seen).toEqual([
      ['tests_and_criteria_passed', 1, 1, 'seed'],
      ['criteria_mid_band', 2, undefined, 'seed'],
    ]);
  });

  it('never changes a decision or an outcome when it throws', () => {
    setStopObserver({
      decision: () => {
        throw new Error('observer bug');
      },
      runEnd: () => {
        throw new Error('observer bug');
      },
    });
    const result = decide(SEED_STOP_POLICY, initialStopState(SEED_STOP_POLICY), { step: 1, tests: PASS, probabilities: { a: 0.95 } });
    expect(result.decision).toMatchObject({ kind: 'stop', exit: 'success' });
    expect(() => notifyStopEnd({ driver: 'custom', decision: result.decision })).not.toThrow();
  });

  it('lives on globalThis under a registered symbol, so that another copy of the package reaches the same observer', () => {
    const ends: StopRunEnd[] = [];
    // What a second copy of stop-observer.ts does: it reads the slot by the same registered symbol.
    const slot = (globalThis as Record<symbol, { observer?: { runEnd?: (end: StopRunEnd) => void } } | undefined>)[Symbol.for('stopwise.stop-observer.v1')];
    setStopObserver({ runEnd: (end) => void ends.push(end) });
    const other = (globalThis as Record<symbol, { observer?: { runEnd?: (end: StopRunEnd) => void } } | undefined>)[Symbol.for('stopwise.stop-observer.v1')];
    expect(other?.observer).toBe(currentStopObserver());
    other?.observer?.runEnd?.({ driver: 'stop-hook' });
    expect(ends).toEqual([{ driver: 'stop-hook' }]);
    expect(slot === undefined || slot === other).toBe(true);
  });

  it('returns the observer it replaces and refuses what is not an object', () => {
    const first = { decision: (_: StopDecision) => undefined };
    expect(setStopObserver(first)).toBeUndefined();
    expect(setStopObserver(undefined)).toBe(first);
    expect(() => setStopObserver(42 as never)).toThrow(TypeError);
  });
});
