import { describe, expect, it } from 'vitest';
import { emptyUsage } from '../../../src/core/budget.js';
import { decide, initialStopState } from '../../../src/core/policy/decide.js';
import { parseStopPolicy } from '../../../src/core/policy/parse-stop-policy.js';
import type { StopDecision } from '../../../src/core/policy/stop-decision.js';
import type { StopEvent } from '../../../src/core/policy/stop-event.js';
import type { StopPolicyDocument } from '../../../src/core/policy/stop-policy-document.js';
import { toStopOutcome } from '../../../src/core/policy/to-stop-outcome.js';

const facts = { steps: 2, usage: { ...emptyUsage(), steps: 2 }, text: 'last text', trace: [] };

function stopOf(policy: StopPolicyDocument, event: StopEvent): Extract<StopDecision, { kind: 'stop' }> {
  const { decision } = decide(policy, initialStopState(policy), event);
  if (decision.kind !== 'stop') throw new Error(`expected a stop, got ${decision.kind}`);
  return decision;
}

const policy = parseStopPolicy({
  version: 2,
  rules: [
    { id: 'provider_failed', when: { provider: 'failed' }, then: { kind: 'stop', exit: 'failed', reason: 'provider_failed' } },
    { id: 'provider_limit', when: { any: [{ provider: 'token_limit' }, { provider: 'step_limit' }] }, then: { kind: 'stop', exit: 'limit', reason: 'provider_limit' } },
    { id: 'model_spend', when: { limit: { of: 'decisionModelCost', max: 0.5 } }, then: { kind: 'stop', exit: 'limit', reason: 'model_spend' } },
    { id: 'steps', when: { limit: { of: 'steps', max: 3 } }, then: { kind: 'stop', exit: 'limit', reason: 'steps' } },
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
    const spend = toStopOutcome(stopOf(policy, { step: 2, usage: { decisionModelCost: 0.6 } }), facts);
    expect(spend).toMatchObject({ exit: 'limit', limit: 'cost', used: 0.6, max: 0.5 });
    expect(spend).not.toHaveProperty('key');
  });

  it('reports the limits the policy was built from as given: a fractional step cap as it was set', () => {
    expect(toStopOutcome(stopOf(policy, { step: 3 }), { ...facts, steps: 3, budget: { maxSteps: 2.5 } })).toMatchObject({
      exit: 'limit', limit: 'steps', key: 'maxSteps', used: 3, max: 2.5, source: 'budget',
    });
    expect(toStopOutcome(stopOf(policy, { step: 3 }), { ...facts, steps: 3 })).toMatchObject({ max: 3 });
  });

  it("reports the provider's own limit with no max, and a generation that could not be read as a ProviderStopError", () => {
    const usage = { ...emptyUsage(), steps: 2, inputTokens: 40, outputTokens: 60 };
    expect(toStopOutcome(stopOf(policy, { step: 2, provider: 'token_limit' }), { ...facts, usage, finalAnswer: 'partial' })).toEqual({
      steps: 2, usage, text: 'last text', trace: [], decision: expect.objectContaining({ rule: 'provider_limit' }),
      exit: 'limit', limit: 'tokens', source: 'provider', used: 100, max: null, finalAnswer: 'partial',
    });
    expect(toStopOutcome(stopOf(policy, { step: 2, provider: 'step_limit' }), facts)).toMatchObject({ exit: 'limit', limit: 'steps', source: 'provider', used: 2, max: null });
    expect(toStopOutcome(stopOf(policy, { step: 2, provider: 'failed' }), { ...facts, providerError: 'unknown finish reason "other"' })).toMatchObject({
      exit: 'failed', error: { name: 'ProviderStopError', message: 'unknown finish reason "other"', during: 'turn' },
    });
    expect(toStopOutcome(stopOf(policy, { step: 2, provider: 'failed' }), facts)).toMatchObject({
      exit: 'failed', error: { name: 'ProviderStopError', message: 'stop (failed) at step 2 by rule provider_failed: the generation could not be read' },
    });
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
    expect(toStopOutcome(stopOf(policy, { step: 2 }), facts)).toMatchObject({ exit: 'need_help', question: 'stop (need_help) at step 2 by rule stuck: no tests ran', waitedMs: 0 });
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
