import { describe, expect, it } from 'vitest';
import { evaluatePolicy } from '../../src/calibrate/evaluate-policy.js';
import type { ScoredCase } from '../../src/calibrate/labelled-case.js';
import { parseStopPolicy } from '../../src/core/policy/parse-stop-policy.js';
import { SEED_STOP_POLICY, seedStopPolicy } from '../../src/core/policy/seed-stop-policy.js';
import { createStopPolicy } from '../../src/core/stop-policy.js';

const passed = { passed: true, failed: [], ran: 4 };
const failed = { passed: false, failed: ['t'], ran: 4 };
const none = { passed: false, failed: [], ran: 0 };

const cases: ScoredCase[] = [
  { probabilities: { a: 0.9 }, tests: passed, label: 'done' }, // stop_done
  { probabilities: { a: 0.95 }, tests: passed, label: 'not_done' }, // stop_done: a false done
  { probabilities: { a: 0.5 }, tests: passed, label: 'done' }, // mid band: retry
  { probabilities: { a: 0.2 }, tests: passed, label: 'done' }, // criteria low: a false hand-off
  { probabilities: { a: 0.2 }, tests: passed, label: 'not_done' }, // criteria low
  { probabilities: { a: 0.99 }, tests: failed, label: 'not_done' }, // evidence contradicts: hand-off
  { probabilities: { a: 0.3 }, tests: failed, label: 'not_done' }, // tests failed: retry
  { probabilities: { a: 0.99 }, tests: none, label: 'not_done' }, // no tests ran: retry
];

describe('evaluatePolicy', () => {
  it('counts what decide decides per label under the seed preset and derives the rates', () => {
    const report = evaluatePolicy(cases, seedStopPolicy(createStopPolicy({ doneThreshold: 0.7, midBandLow: 0.4 })));
    expect(report.confusion).toEqual({
      stopDone: { done: 1, notDone: 1 },
      retry: { done: 1, notDone: 2 },
      handoffHuman: { done: 1, notDone: 2 },
    });
    expect(report.byReason).toEqual({
      tests_and_criteria_passed: 2,
      criteria_mid_band: 1,
      criteria_low: 2,
      evidence_contradicts_model: 1,
      tests_failed: 1,
      no_tests_ran: 1,
    });
    expect(report).toMatchObject({
      cases: 8,
      falseDones: 1,
      falseHandoffs: 1,
      falseDoneRate: 1 / 8,
      precision: 0.5,
      falseHandoffRate: 1 / 8,
      coverage: 5 / 8,
      doneShare: 2 / 8,
      retryShare: 3 / 8,
    });
  });

  it('gives null rates for no cases and rejects unscored ones', () => {
    const empty = evaluatePolicy([], SEED_STOP_POLICY);
    expect(empty).toMatchObject({ cases: 0, falseDoneRate: null, precision: null, coverage: null });
    expect(() => evaluatePolicy([{ label: 'done', id: 'x' } as unknown as ScoredCase], SEED_STOP_POLICY)).toThrow(/case 0 \(x\)/);
  });

  it('keys the counts by the reasons of any policy, a continue counting as sent back', () => {
    const policy = parseStopPolicy({
      version: 2,
      rules: [
        { id: 'red', when: { tests: 'failed' }, then: { kind: 'stop', exit: 'failed', reason: 'red_tests' } },
        { id: 'sure', when: { any: [{ criteria: { gte: 0.9 } }, { not: { tests: 'passed' } }] }, then: { kind: 'stop', exit: 'success', reason: 'sure' } },
        { id: 'unsure', when: { criteria: { lt: 0.25 } }, then: { kind: 'stop', exit: 'need_help', reason: 'unsure' } },
        { id: 'wait', when: { always: true }, then: { kind: 'continue' } },
      ],
    });
    const report = evaluatePolicy(cases, policy);
    expect(report.byReason).toEqual({ sure: 3, red_tests: 2, unsure: 2, continue: 1 });
    expect(report.confusion).toEqual({
      // 0.95 not done, 0.9 done, and no tests ran at 0.99 (not done): a policy that stops there pays for it.
      stopDone: { done: 1, notDone: 2 },
      retry: { done: 1, notDone: 0 },
      handoffHuman: { done: 1, notDone: 3 },
    });
    expect(report.falseDones).toBe(2);
  });
});
