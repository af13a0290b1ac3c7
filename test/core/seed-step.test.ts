import { describe, expect, it } from 'vitest';
import { decide } from '../../src/core/policy/decide.js';
import { SEED_STOP_POLICY } from '../../src/core/policy/seed-stop-policy.js';
import { seedStep } from '../../src/core/seed-step.js';

const PASS = { passed: true, failed: [], ran: 3 };

describe('seedStep', () => {
  it('makes the state before the step and the event of the step, with the step own fingerprint last', () => {
    const { state, event } = seedStep(SEED_STOP_POLICY, { step: 4, recentFingerprints: ['a', 'b', 'c'] }, PASS, { x: 0.9 });
    expect(state).toMatchObject({ version: 2, step: 3, fingerprints: ['a', 'b'], retries: 0 });
    expect(event).toEqual({ step: 4, tests: PASS, probabilities: { x: 0.9 }, fingerprint: 'c' });
    expect(decide(SEED_STOP_POLICY, state, event).decision.rule).toBe('tests_and_criteria_passed');
  });

  it('sends no fingerprint when the loop keeps none, and no probabilities when none are given', () => {
    const { state, event } = seedStep(SEED_STOP_POLICY, { step: 0, recentFingerprints: [] }, PASS);
    expect(state.step).toBe(0);
    expect(event).toEqual({ step: 0, tests: PASS, fingerprint: null });
  });

  it('replaces a fingerprint longer than a state keeps by its digest: equal strings stay equal', () => {
    const long = 'x'.repeat(500);
    const { state, event } = seedStep(SEED_STOP_POLICY, { step: 3, recentFingerprints: [long, long, long] }, PASS, { x: 1 });
    expect(event.fingerprint).toMatch(/^long:/);
    expect(event.fingerprint?.length).toBeLessThanOrEqual(128);
    expect(state.fingerprints).toEqual([event.fingerprint, event.fingerprint]);
    expect(decide(SEED_STOP_POLICY, state, event).decision.rule).toBe('stalled');
    const other = seedStep(SEED_STOP_POLICY, { step: 3, recentFingerprints: [`${long}y`] }, PASS, { x: 1 });
    expect(other.event.fingerprint).not.toBe(event.fingerprint);
  });

  it('refuses a malformed loop state', () => {
    expect(() => seedStep(SEED_STOP_POLICY, { step: -1, recentFingerprints: [] }, PASS)).toThrow('loop.step must be a non-negative integer');
    expect(() => seedStep(SEED_STOP_POLICY, { step: 1, recentFingerprints: [3 as unknown as string] }, PASS)).toThrow('loop.recentFingerprints must be an array of strings');
  });
});
