import { describe, expect, it } from 'vitest';
import { decideCompletionAction } from '../../src/core/decide-completion-action.js';
import type { RetryAction } from '../../src/core/completion-action.js';
import { doneCriteria } from '../../src/decision-model/boolean-question.js';
import { describeRetry } from '../../src/loop/describe-retry.js';

const loop = { step: 2, recentFingerprints: [] };

function retryFor(probabilities: Record<string, number>, tests: { passed: boolean; failed: string[]; ran: number }): RetryAction {
  const action = decideCompletionAction(probabilities, tests, loop);
  if (action.action !== 'retry') throw new Error(`expected a retry, got ${action.action}`);
  return action;
}

describe('describeRetry', () => {
  it('asks for a test run when no tests ran', () => {
    const action = retryFor({ acceptanceCovered: 0.9 }, { passed: true, failed: [], ran: 0 });
    expect(describeRetry(action)).toMatch(/no tests ran after your last step\. Run the test suite/);
  });

  it('lists the failed tests with their messages when the evidence has them', () => {
    const tests = {
      passed: false,
      failed: ['a > one', 'b > two'],
      ran: 9,
      failures: [{ name: 'b > two', message: `  expected 2 to be 3${'!'.repeat(600)}` }],
    };
    const text = describeRetry(retryFor({ acceptanceCovered: 0.3 }, tests), { tests });
    const lines = text.split('\n');
    expect(lines[0]).toBe('Not done yet: 2 tests failed. Fix them, then finish.');
    expect(lines[1]).toBe('- a > one');
    expect(lines[2]).toMatch(/^- b > two: expected 2 to be 3!+\.\.\.$/);
    expect(lines[2]!.length).toBeLessThan(520);
  });

  it('clips a long message without keeping half of a surrogate pair', () => {
    const tests = { passed: false, failed: ['t'], ran: 1, failures: [{ name: 't', message: `${'e'.repeat(496)}😀😀😀` }] };
    const lines = describeRetry(retryFor({ acceptanceCovered: 0.3 }, tests), { tests }).split('\n');
    expect(lines[1]).toBe(`- t: ${'e'.repeat(496)}...`);
  });

  it('keeps a long list of failures short', () => {
    const failed = Array.from({ length: 14 }, (_, i) => `t${i}`);
    const text = describeRetry(retryFor({ c: 0.1 }, { passed: false, failed, ran: 20 }));
    expect(text).toContain('14 tests failed');
    expect(text).toContain('- t9\n- and 4 more');
    expect(text).not.toContain('t10');
  });

  it('says when a failed run names no test', () => {
    const text = describeRetry(retryFor({ c: 0.1 }, { passed: false, failed: [], ran: 3 }));
    expect(text).toMatch(/the test run failed without naming a test/);
  });

  it('names every criterion below the threshold, lowest first, with its question and the acceptance list', () => {
    const probabilities = { acceptanceCovered: 0.62, noOpenQuestions: 0.45, style: 0.95 };
    const action = retryFor(probabilities, { passed: true, failed: [], ran: 5 });
    const text = describeRetry(action, { probabilities, questions: doneCriteria, acceptance: ['the last partial page is returned'] });
    expect(text.split('\n')).toEqual([
      'Not done yet: the tests pass, but the completion check is not convinced the task is finished.',
      '- noOpenQuestions ("Does the output leave no blocking question for the user?"): P(true) = 0.45, below 0.7',
      '- acceptanceCovered ("Does the output address every acceptance criterion listed in the task?"): P(true) = 0.62, below 0.7',
      'Make sure every acceptance criterion is met and shown in your answer:',
      '- the last partial page is returned',
    ]);
  });

  it('falls back to the lowest criterion of the action when no probabilities are given', () => {
    const action = retryFor({ acceptanceCovered: 0.5 }, { passed: true, failed: [], ran: 5 });
    expect(describeRetry(action)).toContain('- acceptanceCovered: P(true) = 0.5, below 0.7');
  });
});
