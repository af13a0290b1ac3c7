import { describe, expect, it } from 'vitest';
import type { ScoredCase } from '../../src/calibrate/labelled-case.js';
import { certifyDoneThreshold, certifyMidBandLow, defaultThresholdGrid } from '../../src/calibrate/learn-then-test.js';
import { parseStopPolicy } from '../../src/core/policy/parse-stop-policy.js';
import { SEED_STOP_POLICY } from '../../src/core/policy/seed-stop-policy.js';
import type { TestEvidence } from '../../src/core/test-evidence.js';

type Evidence = 'passed' | 'failed' | 'none';
const EVIDENCE: Record<Evidence, TestEvidence> = {
  passed: { passed: true, failed: [], ran: 5 },
  failed: { passed: false, failed: ['a test'], ran: 5 },
  none: { passed: false, failed: [], ran: 0 },
};

/** Cases from [lowest probability, labelled done, test evidence (passed by default)]. */
function outcomes(spec: readonly [score: number, done: boolean, evidence?: Evidence][]): ScoredCase[] {
  return spec.map(([score, done, evidence]) => ({ probabilities: { acceptanceCovered: score }, tests: EVIDENCE[evidence ?? 'passed'], label: done ? 'done' : 'not_done' }));
}

const policy = SEED_STOP_POLICY;
const options = { alpha: 0.05, delta: 0.1, grid: [0.9, 0.8, 0.7], risk: 'joint' as const, method: 'exact' as const };

describe('certifyDoneThreshold', () => {
  it('the default grid walks 0.99 down to 0.01', () => {
    const grid = defaultThresholdGrid();
    expect(grid).toHaveLength(99);
    expect(grid[0]).toBe(0.99);
    expect(grid[98]).toBe(0.01);
    expect(grid).toContain(0.7);
  });

  it('certifies with 6 false dones of 300 and not with 10, as in the worked example', () => {
    const six = outcomes([
      ...Array.from({ length: 6 }, () => [0.95, false] as [number, boolean]),
      ...Array.from({ length: 294 }, () => [0.95, true] as [number, boolean]),
    ]);
    const passed = certifyDoneThreshold(six, policy, { ...options, grid: [0.9] });
    expect(passed.certified).toBe(true);
    expect(passed.tests[0]).toMatchObject({ threshold: 0.9, stopped: 300, falseDones: 6, n: 300, observedRisk: 0.02 });
    expect(passed.tests[0]?.exactPValue).toBeCloseTo(0.0066, 4);
    expect(passed.tests[0]?.hoeffdingBentkusPValue).toBeCloseTo(0.018, 3);

    const ten = outcomes([
      ...Array.from({ length: 10 }, () => [0.95, false] as [number, boolean]),
      ...Array.from({ length: 290 }, () => [0.95, true] as [number, boolean]),
    ]);
    for (const method of ['exact', 'hoeffding-bentkus'] as const) {
      const failed = certifyDoneThreshold(ten, policy, { ...options, grid: [0.9], method });
      expect(failed.certified).toBe(false);
      expect(failed.threshold).toBeNull();
    }
  });

  it('stops at the first failing threshold even when a lower one would pass (fixed sequence)', () => {
    // The joint loss only grows as the threshold falls; the conditional one need not: 0.85 holds
    // 20 false dones and nothing else, below it thousands of done cases dilute the rate again.
    const cases = outcomes([
      ...Array.from({ length: 50 }, () => [0.95, true] as [number, boolean]),
      ...Array.from({ length: 20 }, () => [0.85, false] as [number, boolean]),
      ...Array.from({ length: 3000 }, () => [0.75, true] as [number, boolean]),
    ]);
    const result = certifyDoneThreshold(cases, policy, { ...options, risk: 'conditional' });
    expect(result.tests.map((test) => [test.threshold, test.passed])).toEqual([
      [0.9, true],
      [0.8, false],
    ]);
    expect(result.threshold).toBe(0.9);
    // Tested on its own at the full delta, 0.7 would pass (20 of 3070), but the walk never reaches it.
    expect(certifyDoneThreshold(cases, policy, { ...options, risk: 'conditional', grid: [0.7] }).certified).toBe(true);
  });

  it('for the joint risk, the count of false dones only grows down the walk', () => {
    const cases = outcomes([
      ...Array.from({ length: 5 }, () => [0.95, false] as [number, boolean]),
      ...Array.from({ length: 10 }, () => [0.75, false] as [number, boolean]),
      ...Array.from({ length: 285 }, () => [0.85, true] as [number, boolean]),
    ]);
    const result = certifyDoneThreshold(cases, policy, options);
    expect(result.tests.map((test) => test.falseDones)).toEqual([5, 5, 15]);
    expect(result.tests.map((test) => test.passed)).toEqual([true, true, false]);
    expect(result.threshold).toBe(0.8);
  });

  it('ignores cases whose tests failed or did not run: they are never stopped as done', () => {
    const cases = outcomes([
      ...Array.from({ length: 50 }, () => [0.99, false, 'failed'] as [number, boolean, 'failed']),
      ...Array.from({ length: 50 }, () => [0.99, false, 'none'] as [number, boolean, 'none']),
      ...Array.from({ length: 100 }, () => [0.95, true] as [number, boolean]),
    ]);
    const result = certifyDoneThreshold(cases, policy, options);
    expect(result.tests.every((test) => test.falseDones === 0)).toBe(true);
    expect(result.tests.at(-1)).toMatchObject({ threshold: 0.7, stopped: 100, n: 200 });
  });

  it('conditional risk counts over the stopped cases, and fails where none stop', () => {
    const cases = outcomes([
      ...Array.from({ length: 95 }, () => [0.85, true] as [number, boolean]),
      ...Array.from({ length: 5 }, () => [0.85, false] as [number, boolean]),
    ]);
    const result = certifyDoneThreshold(cases, policy, { ...options, risk: 'conditional', alpha: 0.15 });
    expect(result.tests[0]).toMatchObject({ threshold: 0.9, stopped: 0, n: 0, observedRisk: null, pValue: 1, passed: false });
    const lower = certifyDoneThreshold(cases, policy, { ...options, risk: 'conditional', alpha: 0.15, grid: [0.8] });
    expect(lower.tests[0]).toMatchObject({ stopped: 100, falseDones: 5, n: 100, observedRisk: 0.05, passed: true });
  });
});

describe('any policy', () => {
  const named = parseStopPolicy({
    version: 2,
    name: 'named criterion, tests not read',
    rules: [
      { id: 'ok', when: { criteria: { criterion: 'acceptanceCovered', gte: 0.5 } }, then: { kind: 'stop', exit: 'success', reason: 'ok' } },
      { id: 'again', when: { always: true }, then: { kind: 'retry', reason: 'again' } },
    ],
  });
  const cases = outcomes([
    ...Array.from({ length: 50 }, () => [0.95, false, 'failed'] as [number, boolean, Evidence]),
    ...Array.from({ length: 250 }, () => [0.85, true] as [number, boolean]),
  ]);

  it('walks the done bound of the policy given, each case decided by its rules', () => {
    // This policy stops on the criterion whatever the tests say: the 50 failing cases are false dones from the first threshold.
    expect(certifyDoneThreshold(cases, named, options).tests).toEqual([expect.objectContaining({ threshold: 0.9, stopped: 50, falseDones: 50, passed: false })]);
    // The seed never stops a case whose tests failed.
    expect(certifyDoneThreshold(cases, SEED_STOP_POLICY, options)).toMatchObject({ certified: true, threshold: 0.7 });
    expect(() => certifyDoneThreshold(cases, parseStopPolicy({ version: 2, rules: [{ id: 'x', when: { tests: 'passed' }, then: { kind: 'stop', exit: 'success', reason: 'x' } }] }), options)).toThrow(
      /no threshold to calibrate/,
    );
  });

  it('keeps the low bound at 0 for a policy without one', () => {
    const mid = { target: 0.1, delta: 0.1, grid: [0.5, 0.4, 0.3], method: 'exact' as const };
    expect(certifyMidBandLow(cases, named, 0.8, mid)).toEqual({ certified: true, midBandLow: 0, tests: [expect.objectContaining({ midBandLow: 0, falseHandoffs: 0 })] });
  });
});

describe('certifyMidBandLow', () => {
  const mid = { target: 0.1, delta: 0.1, grid: [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1], method: 'exact' as const };

  it('walks up from 0 and keeps the highest low bound within the false hand-off target', () => {
    // 100 cases: the done ones below 0.45 would be handed off once the low bound passes them.
    const cases = outcomes([
      ...Array.from({ length: 2 }, () => [0.15, true] as [number, boolean]),
      ...Array.from({ length: 3 }, () => [0.45, true] as [number, boolean]),
      ...Array.from({ length: 20 }, () => [0.55, true] as [number, boolean]),
      ...Array.from({ length: 75 }, () => [0.95, true] as [number, boolean]),
    ]);
    const result = certifyMidBandLow(cases, policy, 0.8, mid);
    expect(result.tests.map((test) => test.midBandLow)).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6]);
    expect(result.tests.map((test) => test.falseHandoffs)).toEqual([0, 0, 2, 2, 2, 5, 25]);
    expect(result.midBandLow).toBe(0.5);
    expect(result.certified).toBe(true);
  });

  it('never goes above the done threshold, and counts done cases with failed tests conservatively', () => {
    const cases = outcomes([
      ...Array.from({ length: 30 }, () => [0.95, true, 'failed'] as [number, boolean, 'failed']),
      ...Array.from({ length: 70 }, () => [0.95, true] as [number, boolean]),
    ]);
    const result = certifyMidBandLow(cases, policy, 0.3, mid);
    expect(result.certified).toBe(false);
    expect(result.midBandLow).toBe(0);
    expect(result.tests).toHaveLength(1);
    expect(result.tests[0]?.falseHandoffs).toBe(30);
    const within = certifyMidBandLow(outcomes(Array.from({ length: 100 }, () => [0.95, true] as [number, boolean])), policy, 0.3, mid);
    expect(within.midBandLow).toBe(0.3);
  });
});
