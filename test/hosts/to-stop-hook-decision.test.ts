import { describe, expect, it } from 'vitest';
import { decide } from '../../src/core/policy/decide.js';
import { parseStopPolicy } from '../../src/core/policy/parse-stop-policy.js';
import type { StopEvent } from '../../src/core/policy/stop-event.js';
import { initialStopState } from '../../src/core/policy/stop-state.js';
import { blockCapHandoff, toStopHookDecision } from '../../src/hosts/to-stop-hook-decision.js';

const red = { passed: false, failed: ['a > b'], ran: 2 };
const policy = parseStopPolicy({
  version: 1,
  rules: [
    { id: 'lint', when: { check: { name: 'lint', is: 'failed' } }, then: { kind: 'retry', reason: 'lint_failed' } },
    { id: 'budget', when: { limit: { of: 'cost', max: 1 } }, then: { kind: 'stop', exit: 'limit', reason: 'budget' } },
    { id: 'green', when: { tests: 'passed' }, then: { kind: 'stop', exit: 'success', reason: 'green' } },
    { id: 'wait', when: { signal: 'none' }, then: { kind: 'continue', reason: 'keep_going' } },
  ],
});
const decided = (event: Omit<StopEvent, 'step'>) => decide(policy, initialStopState(policy), { step: 1, ...event }).decision;

describe('toStopHookDecision', () => {
  it('blocks on a retry with its feedback, allows a success silently, hands off any other stop', () => {
    expect(toStopHookDecision(decided({ tests: red, checks: { lint: false } }), { tests: red })).toEqual({
      decision: 'block',
      reason: 'Not done yet (lint_failed, rule lint).',
    });
    expect(toStopHookDecision(decided({ tests: { passed: true, failed: [], ran: 1 } }), { tests: red })).toBeUndefined();
    expect(toStopHookDecision(decided({ tests: red, usage: { cost: 2 } }), { tests: red })).toEqual({
      systemMessage: expect.stringMatching(/^stopwise: the stop policy handed this stop to a person \(stop \(limit: budget\) at step 1 by rule budget: cost 2, maxCost 1\).*A person should look\.$/),
    });
  });

  it('hands off a continue, whether a rule said so or none fired: a stop is never allowed silently by default', () => {
    const events: Omit<StopEvent, 'step'>[] = [{ tests: red }, { tests: red, signal: { kind: 'done', note: 'all done' } }];
    for (const event of events) {
      const answer = toStopHookDecision(decided(event), { tests: red });
      expect(answer).toEqual({ systemMessage: expect.stringMatching(/^stopwise: the stop policy did not decide this stop \(continue \((keep_going|no_rule_fired)\)/) });
    }
  });

  it('words the hand-off of a block asked for after the cap of blocks', () => {
    const line = blockCapHandoff(decided({ tests: red, checks: { lint: false } }), 2).systemMessage;
    expect(line).toMatch(/asked to block again \(retry \(lint_failed\) at step 1 by rule lint.*after 2 blocks in a row \(maxConsecutiveBlocks\)/);
  });
});
