import { describe, expect, it } from 'vitest';
import { decide, initialStopState, SEED_STOP_POLICY } from '../../../src/index.js';
import { toStopWhenAnswer } from '../../../src/integrations/ai-sdk/to-stop-when-answer.js';

describe('toStopWhenAnswer', () => {
  it('stops the AI SDK loop on a stop of any exit, and lets it go on after a retry', () => {
    const state = initialStopState(SEED_STOP_POLICY);
    const retry = decide(SEED_STOP_POLICY, state, { step: 1 }).decision;
    const success = decide(SEED_STOP_POLICY, state, { step: 1, tests: { passed: true, failed: [], ran: 2 }, probabilities: { c: 0.9 } }).decision;
    const cap = decide(SEED_STOP_POLICY, state, { step: 20 }).decision;
    expect([retry.kind, success.kind, cap.kind]).toEqual(['retry', 'stop', 'stop']);
    expect([toStopWhenAnswer(retry), toStopWhenAnswer(success), toStopWhenAnswer(cap)]).toEqual([false, true, true]);
  });
});
