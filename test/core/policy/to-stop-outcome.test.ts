import { describe, expect, it } from 'vitest';
import { decide, emptyUsage, initialStopState, parseStopPolicy, toStopOutcome, type StopDecision, type StopEvent, type StopPolicyDocument } from '../../../src/index.js';

const facts = { steps: 2, usage: { ...emptyUsage(), steps: 2 }, text: 'last text', trace: [] };

function stopOf(policy: StopPolicyDocument, event: StopEvent): Extract<StopDecision, { kind: 'stop' }> {
  const { decision } = decide(policy, initialStopState(policy), event);
  if (decision.kind !== 'stop') throw new Error(`expected a stop, got ${decision.kind}`);
  return decision;
}

const policy = parseStopPolicy({
  version: 1,
  rules: [
    { id: 'judge_spend', when: { limit: { of: 'decisionModelCost', max: 0.5 } }, then: { kind: 'stop', exit: 'limit', reason: 'judge_spend' } },
    { id: 'tokens', when: { limit: { of: 'totalTokens', max: 100 } }, then: { kind: 'stop', exit: 'limit', reason: 'tokens' } },
    { id: 'red_limit', when: { tests: 'failed' }, then: { kind: 'stop', exit: 'limit', reason: 'red' } },
    { id: 'quit', when: { signal: 'give_up' }, then: { kind: 'stop', exit: 'gave_up', reason: 'quit' } },
    { id: 'ask', when: { signal: 'need_help' }, then: { kind: 'stop', exit: 'need_help', reason: 'ask' } },
    { id: 'stuck', when: { tests: 'no_tests_ran' }, then: { kind: 'stop', exit: 'need_help', reason: 'stuck' } },
    { id: 'broken', when: { check: { name: 'build', is: 'failed' } }, then: { kind: 'stop', exit: 'failed', reason: 'broken' } },
    { id: 'ok', when: { always: true }, then: { kind: 'stop', exit: 'success', reason: 'ok' } },
  ],
});
const GREEN = { passed: true, failed: [], ran: 3 };

describe('toStopOutcome', () => {
  it('reports the limit the rule compared, with its key, and the decision model spend as cost without a key', () => {
    expect(toStopOutcome(stopOf(policy, { step: 2, tests: GREEN, usage: { inputTokens: 80, outputTokens: 30 } }), facts)).toMatchObject({
      exit: 'limit', limit: 'tokens', key: 'maxTotalTokens', used: 110, max: 100, source: 'budget', decision: { rule: 'tokens' },
    });
    const judge = toStopOutcome(stopOf(policy, { step: 2, usage: { decisionModelCost: 0.6 } }), facts);
    expect(judge).toMatchObject({ exit: 'limit', limit: 'cost', used: 0.6, max: 0.5 });
    expect(judge).not.toHaveProperty('key');
  });

  it('reports a limit exit whose rule compared no limit as steps with max null', () => {
    expect(toStopOutcome(stopOf(policy, { step: 2, tests: { passed: false, failed: ['a'], ran: 1 } }), { ...facts, finalAnswer: 'summary' })).toMatchObject({
      exit: 'limit', limit: 'steps', used: 2, max: null, finalAnswer: 'summary',
    });
  });

  it("takes the note and the question from the model's signal, or describes the decision", () => {
    const signal = { kind: 'give_up' as const, note: 'portal down' };
    expect(toStopOutcome(stopOf(policy, { step: 2, tests: GREEN, signal }), { ...facts, signal })).toMatchObject({ exit: 'gave_up', note: 'portal down' });
    const ask = { kind: 'need_help' as const, note: 'which account?' };
    const human = { question: 'which account?', waitedMs: 250, timedOut: true };
    expect(toStopOutcome(stopOf(policy, { step: 2, tests: GREEN, signal: ask }), { ...facts, signal: ask, human })).toMatchObject({
      exit: 'need_help', question: 'which account?', waitedMs: 250,
    });
    expect(toStopOutcome(stopOf(policy, { step: 2 }), facts)).toMatchObject({ exit: 'need_help', question: expect.stringMatching(/^stop \(need_help: stuck\) at step 2 by rule stuck/), waitedMs: 0 });
  });

  it('ends a failed exit with an error named PolicyStop, and success with the done note', () => {
    expect(toStopOutcome(stopOf(policy, { step: 2, tests: GREEN, checks: { build: false } }), facts)).toMatchObject({
      exit: 'failed', error: { name: 'PolicyStop', during: 'turn', message: expect.stringContaining('by rule broken') },
    });
    const done = { kind: 'done' as const, note: 'shipped' };
    expect(toStopOutcome(stopOf(policy, { step: 2, tests: GREEN, signal: done }), { ...facts, signal: done })).toMatchObject({ exit: 'success', note: 'shipped', text: 'last text' });
    expect(toStopOutcome(stopOf(policy, { step: 2, tests: GREEN }), facts)).toMatchObject({ exit: 'success', note: '' });
  });
});
