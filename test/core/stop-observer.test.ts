import { afterEach, describe, expect, it } from 'vitest';
import { decideCompletionAction } from '../../src/core/decide-completion-action.js';
import { checkBudget } from '../../src/core/budget.js';
import { combineDoneSignal } from '../../src/core/combine-done-signal.js';
import { decide, decideUnobserved, initialStopState, needsJudgement } from '../../src/core/policy/decide.js';
import { isStalled } from '../../src/core/stall.js';
import { runAgentLoop } from '../../src/loop/run-agent-loop.js';
import { SEED_STOP_POLICY } from '../../src/core/policy/seed-stop-policy.js';
import type { StopDecision } from '../../src/core/policy/stop-decision.js';
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
    // needsJudgement decides nothing: the observer does not hear of it.
    expect(needsJudgement(SEED_STOP_POLICY, initialStopState(SEED_STOP_POLICY), { step: 3, tests: PASS })).toBe(true);
    expect(seen).toEqual([
      ['tests_and_criteria_passed', 1, 1, 'seed'],
      ['criteria_mid_band', 2, 0, 'seed'],
    ]);
  });

  it('hears only the decisions of a run: not a replayed step, a check of the evidence or a budget, nor a step 0 that did not stop the loop', async () => {
    const seen: [string, number, string | undefined][] = [];
    setStopObserver({ decision: (decision, step, _totals, policy) => void seen.push([decision.reason, step, policy]) });
    const event = { step: 1, tests: PASS, probabilities: { a: 0.95 } };
    const first = decide(SEED_STOP_POLICY, initialStopState(SEED_STOP_POLICY), event);
    decide(SEED_STOP_POLICY, first.state, event);
    decideUnobserved(SEED_STOP_POLICY, first.state, { ...event, step: 2 });
    combineDoneSignal({ a: 0.9 }, PASS);
    isStalled(['f', 'f', 'f']);
    checkBudget({ maxSteps: 2 }, { steps: 3 });
    expect(seen).toEqual([['tests_and_criteria_passed', 1, 'seed']]);
    seen.length = 0;
    await runAgentLoop({ limits: { maxSteps: 1 }, now: () => 0, turn: () => ({}), verify: () => ({ ok: true }) });
    await runAgentLoop({ limits: { maxSteps: 0 }, now: () => 0, turn: () => ({}), verify: () => ({ ok: true }) });
    expect(seen).toEqual([
      ['maxSteps', 1, 'agent-loop'],
      ['maxSteps', 0, 'agent-loop'],
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
