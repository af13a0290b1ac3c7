import { describe, expect, it } from 'vitest';
import { advanceLoopState, initialLoopState } from '../../src/core/agent-loop-state.js';
import { decideCompletionAction } from '../../src/core/decide-completion-action.js';

describe('loop state', () => {
  it('advances the step and keeps a bounded fingerprint window', () => {
    let state = initialLoopState();
    const tests = { passed: false, failed: ['t'], ran: 1 };
    for (let i = 0; i < 1000; i++) state = advanceLoopState(state, tests, `output ${i % 7}`);
    expect(state.step).toBe(1000);
    expect(state.recentFingerprints).toHaveLength(3);
  });

  it('detects a stall after three identical steps', () => {
    let state = initialLoopState();
    const tests = { passed: false, failed: ['t'], ran: 1 };
    state = advanceLoopState(state, tests, 'same');
    state = advanceLoopState(state, tests, 'same');
    expect(decideCompletionAction({ a: 0.1 }, tests, state).reason).toBe('tests_failed');
    state = advanceLoopState(state, tests, 'same');
    expect(decideCompletionAction({ a: 0.1 }, tests, state).reason).toBe('stalled');
  });

  it('survives JSON serialisation and keeps deciding the same way', () => {
    let state = initialLoopState();
    const tests = { passed: false, failed: ['t'], ran: 1 };
    state = advanceLoopState(state, tests, 'same');
    state = advanceLoopState(state, tests, 'same');
    const restored = JSON.parse(JSON.stringify(state)) as typeof state;
    expect(restored).toEqual(state);
    const next = advanceLoopState(restored, tests, 'same');
    expect(decideCompletionAction({ a: 0.1 }, tests, next).reason).toBe('stalled');
  });
});
