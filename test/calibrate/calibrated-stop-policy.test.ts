import { describe, expect, it } from 'vitest';
import type { CalibrationResult } from '../../src/calibrate/calibrate-thresholds.js';
import { calibratedStopPolicy } from '../../src/calibrate/calibrated-stop-policy.js';
import { policyThresholds, uncertified, withThresholds } from '../../src/calibrate/policy-thresholds.js';
import { decide, initialStopState } from '../../src/core/policy/decide.js';
import { parseStopPolicy } from '../../src/core/policy/parse-stop-policy.js';
import { SEED_STOP_POLICY } from '../../src/core/policy/seed-stop-policy.js';
import type { StopPolicyDocument } from '../../src/core/policy/stop-policy-document.js';
import type { TestEvidence } from '../../src/core/test-evidence.js';

const settings = { alpha: 0.1, delta: 0.05, holdout: 0.3, seed: 1, risk: 'joint', maxFalseHandoff: 0.2, method: 'exact', grid: [] };
type Group = { readonly certified: boolean; readonly policy: StopPolicyDocument };
const certified = (base: StopPolicyDocument, done: number, low: number): Group => ({ certified: true, policy: withThresholds(base, policyThresholds(base), { done, low }) });
const nothing = (base: StopPolicyDocument): Group => ({ certified: false, policy: uncertified(base) });
const result = (overall: Group, byTaskType: Record<string, Group>): CalibrationResult => ({ ...overall, settings, byTaskType }) as unknown as CalibrationResult;
const green: TestEvidence = { passed: true, failed: [], ran: 4 };
const red: TestEvidence = { passed: false, failed: ['a'], ran: 4 };

describe('calibratedStopPolicy', () => {
  it('decides each task type with its own thresholds and the rest with the overall ones', () => {
    const document = calibratedStopPolicy(result(certified(SEED_STOP_POLICY, 0.6, 0.3), { bugfix: certified(SEED_STOP_POLICY, 0.9, 0.5) }));
    const at = (taskType: string | undefined, p: number) =>
      decide(document, initialStopState(document), { step: 1, tests: green, probabilities: { a: p }, ...(taskType === undefined ? {} : { taskType }) }).decision.rule;
    expect(at('bugfix', 0.8)).toBe('bugfix.criteria_mid_band');
    expect(at('bugfix', 0.9)).toBe('bugfix.tests_and_criteria_passed');
    expect(at('feature', 0.8)).toBe('tests_and_criteria_passed');
    expect(at(undefined, 0.2)).toBe('criteria_low');
    // A bugfix case never falls through to the overall rules: where its own thresholds retry or hand off, the overall ones would stop.
    expect(at('bugfix', 0.65)).toBe('bugfix.criteria_mid_band');
    expect(at('bugfix', 0.45)).toBe('bugfix.criteria_low');
  });

  it('never stops a run as done where nothing was certified', () => {
    const document = calibratedStopPolicy(result(nothing(SEED_STOP_POLICY), { bugfix: nothing(SEED_STOP_POLICY), feature: certified(SEED_STOP_POLICY, 0.8, 0.4) }));
    const decided = (taskType: string, tests: TestEvidence, p = 1) => decide(document, initialStopState(document), { step: 1, tests, probabilities: { a: p }, taskType }).decision;
    expect(decided('bugfix', green)).toMatchObject({ kind: 'stop', exit: 'need_help', reason: 'not_certified' });
    expect(decided('docs', green)).toMatchObject({ kind: 'stop', exit: 'need_help', reason: 'not_certified' });
    expect(decided('docs', red, 0.5)).toMatchObject({ kind: 'retry', reason: 'tests_failed' });
    expect(decided('docs', red)).toMatchObject({ kind: 'stop', exit: 'need_help', reason: 'evidence_contradicts_model' });
    expect(decided('feature', green, 0.85)).toMatchObject({ kind: 'stop', exit: 'success', rule: 'feature.tests_and_criteria_passed' });
  });

  it('repeats only the rules that compare criteria, for a policy that is not the seed, and notes what was certified', () => {
    const base = parseStopPolicy({
      version: 2,
      name: 'team',
      rules: [
        { id: 'cap', when: { limit: { of: 'cost', max: 5 } }, then: { kind: 'stop', exit: 'limit', reason: 'cap' } },
        { id: 'ok', when: { all: [{ not: { tests: 'failed' } }, { criteria: { criterion: 'acceptance', gte: 0.8 } }] }, then: { kind: 'stop', exit: 'success', reason: 'ok' } },
        { id: 'again', when: { always: true }, then: { kind: 'retry', reason: 'again' } },
      ],
    });
    const document = calibratedStopPolicy(result(certified(base, 0.75, 0), { docs: nothing(base) }));
    expect(document.rules.map((rule) => rule.id)).toEqual(['cap', 'docs.ok', 'ok', 'again']);
    expect(document.rules[1]?.description).toBe('calibrated (alpha 0.1, delta 0.05, exact): nothing certified');
    expect(document.rules[2]?.description).toBe('calibrated (alpha 0.1, delta 0.05, exact)');
    const decided = (taskType: string, p: number) => decide(document, initialStopState(document), { step: 1, tests: green, probabilities: { acceptance: p }, taskType }).decision;
    expect(decided('docs', 0.99)).toMatchObject({ kind: 'stop', exit: 'need_help', reason: 'not_certified', rule: 'docs.ok' });
    expect(decided('bugfix', 0.76)).toMatchObject({ kind: 'stop', exit: 'success', rule: 'ok' });
    expect(decided('bugfix', 0.7)).toMatchObject({ kind: 'retry', rule: 'again' });
  });
});
