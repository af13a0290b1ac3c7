import { describe, expect, it } from 'vitest';
import { agentLoopPolicy } from '../../../src/core/policy/agent-loop-policy.js';
import { decide, initialStopState } from '../../../src/core/policy/decide.js';
import {
  describeDecision,
  evidenceText,
  failedTestsText,
  formatProbability,
  probabilitiesText,
  retryFeedback,
  taskContext,
} from '../../../src/core/policy/describe-decision.js';
import { SEED_STOP_POLICY } from '../../../src/core/policy/seed-stop-policy.js';
import type { StopDecision } from '../../../src/core/policy/stop-decision.js';
import type { StopEvent } from '../../../src/core/policy/stop-event.js';
import type { StopState } from '../../../src/core/policy/stop-state.js';

const state = initialStopState(SEED_STOP_POLICY);
const PASS = { passed: true, failed: [], ran: 4 };
const seed = (event: StopEvent, from: StopState = state): StopDecision => decide(SEED_STOP_POLICY, from, event).decision;

describe('describeDecision', () => {
  it('tells every rule of the seed preset with the values it compared', () => {
    const twelve = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l'];
    const cases: [StopDecision, string][] = [
      [seed({ step: 20, tests: PASS, probabilities: { a: 0.9 } }), 'stop (limit) at step 20 by rule hard_cap: the step cap is reached (20 of 20)'],
      [
        seed({ step: 4, tests: PASS, probabilities: { a: 0.9 }, fingerprint: 'f' }, { ...state, step: 3, fingerprints: ['f', 'f'] }),
        'stop (need_help) at step 4 by rule stalled: the last 3 steps made no progress (identical test results and output)',
      ],
      [seed({ step: 2, tests: { passed: true, failed: [], ran: 0 } }), 'retry at step 2 by rule no_tests_ran: no tests ran'],
      [
        seed({ step: 2, tests: { passed: false, failed: twelve, ran: 9 }, probabilities: { a: 0.9 } }),
        'stop (need_help) at step 2 by rule evidence_contradicts_model: 12 tests failed: a; b; c; d; e; f; g; h; i; j and 2 more; lowest criterion a = 0.9 >= 0.7',
      ],
      [
        seed({ step: 2, tests: { passed: false, failed: [], ran: 3 }, probabilities: { a: 0.2 } }),
        'retry at step 2 by rule tests_failed: the test run failed; lowest criterion a = 0.2 < 0.7',
      ],
      [seed({ step: 2, tests: PASS, probabilities: { a: 0.9 } }), 'stop (success) at step 2 by rule tests_and_criteria_passed: 4 tests passed; lowest criterion a = 0.9 >= 0.7'],
      [seed({ step: 2, tests: PASS, probabilities: { a: 0.5 } }), 'retry at step 2 by rule criteria_mid_band: 4 tests passed; lowest criterion a = 0.5 in [0.4, 0.7)'],
      [seed({ step: 2, tests: PASS, probabilities: { a: 0.1 } }), 'stop (need_help) at step 2 by rule criteria_low: 4 tests passed; lowest criterion a = 0.1 < 0.4'],
      [seed({ step: 2, tests: PASS, probabilities: {} }), 'stop (success) at step 2 by rule tests_and_criteria_passed: 4 tests passed; no criteria (vacuous 1) >= 0.7'],
    ];
    for (const [decision, text] of cases) expect(describeDecision(decision)).toBe(text);
  });

  it('tells the agent loop preset: the provider, a signal, a limit, a rejected claim, and no rule', () => {
    const policy = agentLoopPolicy({ maxCost: 1 });
    const loop = (event: StopEvent): string => describeDecision(decide(policy, initialStopState(policy), event).decision);
    expect(loop({ step: 1, provider: 'failed' })).toBe('stop (failed) at step 1 by rule provider_failed: the generation could not be read');
    expect(loop({ step: 1, provider: 'token_limit' })).toBe("stop (limit) at step 1 by rule provider_limit: the provider's token limit cut the generation short");
    expect(loop({ step: 1, provider: 'step_limit' })).toBe("stop (limit) at step 1 by rule provider_limit: the provider's limit of tool calls or messages was reached");
    expect(loop({ step: 1, signal: { kind: 'give_up', note: 'no access' } })).toBe('stop (gave_up) at step 1 by rule gave_up: the agent signalled give_up');
    expect(loop({ step: 2, usage: { cost: 1.5 } })).toBe('stop (limit) at step 2 by rule maxCost: the cost limit is reached (1.5 of 1)');
    expect(loop({ step: 1, verification: { ok: false, unmet: ['docs'] } })).toBe('retry at step 1 by rule not_verified: code did not verify the claim: not met yet docs');
    expect(loop({ step: 1 })).toBe('continue at step 1 as no rule fired');
  });

  it('names the reason when it differs from the rule', () => {
    const decision: StopDecision = { kind: 'stop', exit: 'need_help', rule: 'r', reason: 'stuck', values: { step: 3, retries: 2 }, trace: [] };
    expect(describeDecision(decision)).toBe('stop (need_help) at step 3 by rule r (stuck): after 2 retries in a row');
  });
});

describe('evidenceText', () => {
  it('says each value once, in a fixed order', () => {
    expect(evidenceText({ step: 1 })).toBe('');
    expect(evidenceText({ step: 1, ran: 1 })).toBe('1 test passed');
    expect(evidenceText({ step: 1, 'check.lint': false, human: 'timed_out', decisionModel: 'unavailable', taskType: 'bugfix', reentered: true })).toBe(
      'check lint false; nobody answered in time; the host says the agent was already sent back once; the decision model could not answer; task type bugfix',
    );
    expect(evidenceText({ step: 1, treeFingerprint: 'a', testsTreeFingerprint: 'b' })).toBe('the tests ran on another tree');
    expect(evidenceText({ step: 1, decisionModelCost: 0.123456, maxDecisionModelCost: 0.1 })).toBe("the decision model's spend limit is reached (0.1235 of 0.1)");
  });
});

describe('retryFeedback', () => {
  const context = { tests: undefined, probabilities: undefined, verification: undefined };

  it('tells the agent which tests failed, with each message on one line and without stack frames', () => {
    const tests = {
      passed: false,
      failed: ['auth > login', 'auth > logout'],
      ran: 5,
      failures: [
        { name: 'auth > login', message: 'expected 401\n    at check (auth.test.ts:3:1)\nreceived 200' },
        { name: 'auth > logout', message: '   ' },
      ],
    };
    const feedback = retryFeedback({ step: 2, failed: tests.failed, ran: 5 }, { ...context, tests }, 'tests_failed');
    expect(feedback).toEqual({
      message: '2 tests failed: auth > login; auth > logout. Fix them and run the tests again before you finish.\n- auth > login: expected 401 received 200',
      failedTests: ['auth > login', 'auth > logout'],
    });
  });

  it('clips a long message without keeping half of a surrogate pair, and lists at most ten failures', () => {
    const tests = { passed: false, failed: ['t'], ran: 1, failures: [{ name: 't', message: `${'e'.repeat(296)}😀😀😀` }] };
    const lines = retryFeedback({ step: 1, failed: ['t'], ran: 1 }, { ...context, tests }, 'tests_failed').message.split('\n');
    expect(lines[1]).toBe(`- t: ${'e'.repeat(296)}...`);
    const failed = Array.from({ length: 14 }, (_, i) => `t${i}`);
    const many = { passed: false, failed, ran: 20, failures: failed.map((name) => ({ name, message: `boom ${name}` })) };
    const feedback = retryFeedback({ step: 1, failed, ran: 20 }, { ...context, tests: many }, 'tests_failed');
    expect(feedback.message.split('\n')[0]).toBe('14 tests failed: t0; t1; t2; t3; t4; t5; t6; t7; t8; t9 and 4 more. Fix them and run the tests again before you finish.');
    expect(feedback.message.split('\n')).toHaveLength(11);
    expect(feedback.message).not.toContain('t10');
    expect(feedback.failedTests).toEqual(failed);
  });

  it('says when a failed run names no test', () => {
    expect(retryFeedback({ step: 1, failed: [], ran: 3 }, context, 'tests_failed').message).toBe(
      'The test run failed outside any single test (a crash, a compile error or a failing command). Fix it and run the tests again before you finish.',
    );
  });

  it('names the unmet criteria against the threshold of the rule', () => {
    const feedback = retryFeedback(
      { step: 2, ran: 4, lowestProbability: 0.5, band: [0.4, 0.7] },
      { ...context, probabilities: { acceptanceCovered: 0.9, noOpenQuestions: 0.5 } },
      'criteria_mid_band',
    );
    expect(feedback).toEqual({
      message:
        'The decision model is not convinced the task is done: noOpenQuestions = 0.5 (each must reach 0.7). Check your work against every acceptance criterion, finish what is missing or say what blocks you.',
      unmetCriteria: ['noOpenQuestions'],
    });
  });

  it('says what is missing when no tests ran, a claim is not verified, or nothing else applies', () => {
    expect(retryFeedback({ step: 1, ran: 0 }, context, 'no_tests_ran').message).toBe(
      'No tests ran: there is no test result for this step. Run the test suite and make it pass before you finish.',
    );
    expect(retryFeedback({ step: 1, verified: false }, { ...context, verification: { ok: false, unmet: ['docs', 'changelog'] } }, 'not_verified')).toEqual({
      message: 'Not met yet: docs, changelog.',
    });
    expect(retryFeedback({ step: 1, 'check.lint': false }, context, 'lint_failed').message).toBe('Not done yet (lint_failed: check lint false).');
    expect(retryFeedback({ step: 1 }, context, 'again').message).toBe('Not done yet (again).');
  });
});

describe('taskContext', () => {
  const criteria = { message: 'm', unmetCriteria: ['acceptanceCovered'] };

  it('gives the task and the criteria when the feedback is about the criteria alone', () => {
    expect(taskContext(criteria, '  Add a rate limit ', ['returns 429', 'documents the header'])).toBe(
      'Task: Add a rate limit\nAcceptance criteria:\n- returns 429\n- documents the header',
    );
    expect(taskContext(criteria, '', ['returns 429'])).toBe('Acceptance criteria:\n- returns 429');
  });

  it('gives nothing when tests failed, no criterion is unmet, or there is nothing to give', () => {
    expect(taskContext({ ...criteria, failedTests: ['x'] }, 'task', ['a'])).toBeUndefined();
    expect(taskContext({ message: 'm' }, 'task', ['a'])).toBeUndefined();
    expect(taskContext(criteria, ' ', [])).toBeUndefined();
  });
});

describe('failedTestsText, probabilitiesText and formatProbability', () => {
  it('lists at most ten failed tests, each cut to a sane length', () => {
    expect(failedTestsText([])).toBe('the test run failed');
    expect(failedTestsText(['x'])).toBe('1 test failed: x');
    const long = failedTestsText(['y'.repeat(500)]);
    expect(long.length).toBeLessThan(230);
    expect(long.endsWith('...')).toBe(true);
    expect(failedTestsText(Array.from({ length: 13 }, (_, i) => `t${i}`))).toBe('13 tests failed: t0; t1; t2; t3; t4; t5; t6; t7; t8; t9 and 3 more');
  });

  it('lists the probabilities lowest first, with at most three decimals', () => {
    expect(probabilitiesText({})).toBe('no criteria');
    expect(probabilitiesText({ a: 0.91234, b: 0.5 })).toBe('b = 0.5, a = 0.912');
    expect(formatProbability(0.6999999999999999)).toBe('0.7');
  });
});
