import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/core/stop-policy.js';
import type { TestEvidence } from '../../src/core/test-evidence.js';
import {
  driveCompletionLoop,
  resolveLoopPolicy,
  type CompletionDecision,
  type CompletionLoopDriver,
  type RetryFeedback,
} from '../../src/loop/completion-loop.js';

const PASS: TestEvidence = { passed: true, failed: [], ran: 4 };

function driver(overrides: Partial<CompletionLoopDriver>, seen: { retries: (RetryFeedback | undefined)[] }): CompletionLoopDriver {
  return {
    policy: DEFAULT_POLICY,
    generateStep: async (step, retry) => {
      seen.retries.push(retry);
      return { text: `output ${step}` };
    },
    readTests: async () => PASS,
    evaluate: async ({ step }) => ({ probabilities: { c: step < 3 ? 0.5 : 0.9 }, model: 'scripted' }),
    task: 'Paginate the list',
    acceptance: ['the last page is reachable'],
    ...overrides,
  };
}

describe('resolveLoopPolicy', () => {
  it('lays maxSteps over the policy and validates the result', () => {
    expect(resolveLoopPolicy(undefined, undefined)).toEqual(DEFAULT_POLICY);
    expect(resolveLoopPolicy(undefined, 7)).toEqual({ ...DEFAULT_POLICY, maxSteps: 7 });
    expect(resolveLoopPolicy({ ...DEFAULT_POLICY, doneThreshold: 0.8 }, undefined)).toEqual({ ...DEFAULT_POLICY, doneThreshold: 0.8 });
    expect(() => resolveLoopPolicy(undefined, 2.5)).toThrow(/maxSteps must be a positive integer, got 2.5/);
    expect(() => resolveLoopPolicy({ ...DEFAULT_POLICY, midBandLow: 0.9 }, 5)).toThrow(/midBandLow/);
  });
});

describe('driveCompletionLoop', () => {
  it('counts steps from 1, hands each retry and the engine feedback (with the task for a criteria retry) to the next step, and ends on the first non-retry', async () => {
    const seen = { retries: [] as (RetryFeedback | undefined)[] };
    const decisions: CompletionDecision[] = [];
    const result = await driveCompletionLoop(driver({ onDecision: (d) => void decisions.push(d) }, seen));
    expect(result).toMatchObject({ action: 'stop_done', reason: 'tests_and_criteria_passed', step: 3, text: 'output 3' });
    const criteria =
      'The decision model is not convinced the task is done: c = 0.5 (each must reach 0.7). Check your work against every acceptance criterion, finish what is missing or say what blocks you.\n\n' +
      'Task: Paginate the list\nAcceptance criteria:\n- the last page is reachable';
    expect(seen.retries.map((r) => r?.feedback)).toEqual([undefined, criteria, criteria]);
    expect(seen.retries[1]?.action).toMatchObject({ action: 'retry', reason: 'criteria_mid_band', rule: 7 });
    expect(decisions.map((d) => d.values.step)).toEqual([1, 2, 3]);
  });

  it('decides on the engine: each decision carries the engine decision it projects, the judgement only when needed', async () => {
    const seen = { retries: [] as (RetryFeedback | undefined)[] };
    const decisions: CompletionDecision[] = [];
    const asked: number[] = [];
    const result = await driveCompletionLoop(
      driver(
        {
          // The same text and the same failing evidence three times: the seed's identical-fingerprint stall.
          generateStep: async (_step, retry) => {
            seen.retries.push(retry);
            return { text: 'same' };
          },
          readTests: async () => ({ passed: false, failed: ['a'], ran: 2 }),
          evaluate: async ({ step }) => {
            asked.push(step);
            return { probabilities: { c: 0.2 }, model: 'scripted' };
          },
          onDecision: (d) => void decisions.push(d),
        },
        seen,
      ),
    );
    expect(result).toMatchObject({ action: 'handoff_human', reason: 'stalled', step: 3 });
    expect(decisions.map((d) => [d.reason, d.evaluated, d.decision?.rule, d.decision?.kind])).toEqual([
      ['tests_failed', true, 'tests_failed', 'retry'],
      ['tests_failed', true, 'tests_failed', 'retry'],
      ['stalled', false, 'stalled', 'stop'],
    ]);
    expect(asked).toEqual([1, 2]);
    // A retry for failing tests says which, without the task.
    expect(seen.retries[1]?.feedback).toBe('1 test failed: a. Fix it and run the tests again before you finish.');
    expect(decisions[0]).toMatchObject({ model: 'scripted', probabilities: { c: 0.2 } });
    expect(result.decision.decision).toMatchObject({ kind: 'stop', exit: 'need_help', values: { step: 3, stallRounds: 3 } });
  });

  it('waits for onDecision before the next step', async () => {
    const order: string[] = [];
    const seen = { retries: [] as (RetryFeedback | undefined)[] };
    await driveCompletionLoop(
      driver(
        {
          generateStep: async (step) => {
            order.push(`step ${step}`);
            return { text: `output ${step}` };
          },
          onDecision: async (d) => {
            await new Promise((resolve) => setTimeout(resolve, 5));
            order.push(`decided ${d.values.step}`);
          },
        },
        seen,
      ),
    );
    expect(order).toEqual(['step 1', 'decided 1', 'step 2', 'decided 2', 'step 3', 'decided 3']);
  });

  it('rejects what a step or a test reader returns when it is malformed', async () => {
    const seen = { retries: [] as (RetryFeedback | undefined)[] };
    await expect(driveCompletionLoop(driver({ generateStep: async () => null as never }, seen))).rejects.toThrow(
      'step 1 must resolve to { text: string }, got null',
    );
    await expect(driveCompletionLoop(driver({ generateStep: async () => ({ text: 42 }) as never }, seen))).rejects.toThrow(
      'step 1 must resolve to { text: string }, got text 42',
    );
    await expect(driveCompletionLoop(driver({ readTests: async () => ({ passed: 'yes', failed: [], ran: 1 }) as never }, seen))).rejects.toThrow(
      'tests.passed must be a boolean, got "yes"',
    );
  });
});
