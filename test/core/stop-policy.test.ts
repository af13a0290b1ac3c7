import { describe, expect, it } from 'vitest';
import {
  DEFAULT_POLICY,
  MAX_AGENT_STEPS,
  MID_BAND_LOW,
  MIN_CRITERION_PROBABILITY,
  STALL_ROUNDS,
  assertStopPolicy,
  createStopPolicy,
  stopPolicyNumbersSchema,
  type StopPolicy,
} from '../../src/core/stop-policy.js';

describe('constants', () => {
  it('have the documented defaults', () => {
    expect([MIN_CRITERION_PROBABILITY, MID_BAND_LOW, MAX_AGENT_STEPS, STALL_ROUNDS]).toEqual([0.7, 0.4, 20, 3]);
    expect(DEFAULT_POLICY).toEqual({ doneThreshold: 0.7, midBandLow: 0.4, maxSteps: 20, stallRounds: 3 });
    expect(Object.isFrozen(DEFAULT_POLICY)).toBe(true);
  });
});

describe('createStopPolicy', () => {
  it('fills missing fields from the defaults', () => {
    expect(createStopPolicy({ maxSteps: 30 })).toEqual({ ...DEFAULT_POLICY, maxSteps: 30 });
    expect(createStopPolicy()).toEqual(DEFAULT_POLICY);
  });

  it('accepts the boundaries of each field', () => {
    expect(createStopPolicy({ doneThreshold: 1, midBandLow: 1 })).toMatchObject({ doneThreshold: 1, midBandLow: 1 });
    expect(createStopPolicy({ doneThreshold: 0, midBandLow: 0 })).toMatchObject({ doneThreshold: 0, midBandLow: 0 });
    expect(createStopPolicy({ maxSteps: 1, stallRounds: 1 })).toMatchObject({ maxSteps: 1, stallRounds: 1 });
  });

  const bad: readonly (readonly [Partial<StopPolicy> | Record<string, unknown>, RegExp])[] = [
    [{ doneThreshold: 1.2 }, /^policy\.doneThreshold: must be at most 1, got 1\.2$/],
    [{ doneThreshold: -0.1 }, /policy\.doneThreshold/],
    [{ doneThreshold: Number.NaN }, /policy\.doneThreshold.*NaN/],
    [{ midBandLow: 2 }, /policy\.midBandLow/],
    [{ midBandLow: 0.8 }, /^policy\.midBandLow: must not be above doneThreshold \(0\.8 > 0\.7\)$/],
    [{ maxSteps: 0 }, /^policy\.maxSteps: must be above 0, got 0$/],
    [{ maxSteps: 2.5 }, /policy\.maxSteps/],
    [{ stallRounds: -1 }, /policy\.stallRounds/],
    [{ maxSteps: '20' as unknown as number }, /policy\.maxSteps/],
    [{ doneTreshold: 0.8 }, /^policy\.doneTreshold: unknown field \(did you mean "doneThreshold"\?\)$/],
    [{ doneThreshold: 2, maxSteps: 0, extra: 1 }, /^policy\.doneThreshold: .*\npolicy\.maxSteps: .*\npolicy\.extra: unknown field; expected one of doneThreshold, midBandLow, maxSteps, stallRounds$/],
  ];
  it.each(bad)('rejects %j with a TypeError naming the field', (overrides, message) => {
    expect(() => createStopPolicy(overrides as Partial<StopPolicy>)).toThrow(TypeError);
    expect(() => createStopPolicy(overrides as Partial<StopPolicy>)).toThrow(message);
  });

  it('returns plain JSON data', () => {
    const policy = createStopPolicy({ doneThreshold: 0.8 });
    expect(JSON.parse(JSON.stringify(policy))).toEqual(policy);
  });
});

describe('createStopPolicy with null', () => {
  it('treats null as a mistake, not as "use the default"', () => {
    expect(() => createStopPolicy({ doneThreshold: null as unknown as number })).toThrow(/policy\.doneThreshold.*got null/);
    expect(() => createStopPolicy({ maxSteps: null as unknown as number })).toThrow(/policy\.maxSteps/);
  });
});

describe('assertStopPolicy', () => {
  it('accepts the defaults and any policy createStopPolicy made, and names the field that is wrong', () => {
    expect(() => assertStopPolicy(DEFAULT_POLICY)).not.toThrow();
    expect(() => assertStopPolicy(createStopPolicy({ maxSteps: 3 }))).not.toThrow();
    expect(() => assertStopPolicy(null as unknown as StopPolicy)).toThrow('policy must be an object');
    expect(() => assertStopPolicy({ ...DEFAULT_POLICY, stallRounds: 0 })).toThrow(/^policy\.stallRounds: must be above 0, got 0$/);
  });
});

describe('stopPolicyNumbersSchema', () => {
  it('takes each number as optional, as a configuration gives them', () => {
    expect(stopPolicyNumbersSchema.safeParse({}).success).toBe(true);
    expect(stopPolicyNumbersSchema.safeParse({ maxSteps: 4 }).success).toBe(true);
    expect(stopPolicyNumbersSchema.safeParse({ midBandLow: 0.9 }).success).toBe(false);
    expect(stopPolicyNumbersSchema.safeParse({ rounds: 3 }).success).toBe(false);
  });
});
