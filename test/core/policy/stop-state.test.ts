import { describe, expect, it } from 'vitest';
import { parseStopPolicy } from '../../../src/core/policy/parse-stop-policy.js';
import { SEED_STOP_POLICY } from '../../../src/core/policy/seed-stop-policy.js';
import type { StopPolicyDocument } from '../../../src/core/policy/stop-policy-document.js';
import { StopPolicyError } from '../../../src/core/policy/stop-policy-error.js';
import { assertStopState, STOP_STATE_VERSION, ZERO_TOTALS, type StopState } from '../../../src/core/policy/stop-state.js';
import { initialStopState } from '../../../src/core/policy/decide.js';

describe('initialStopState', () => {
  it('is version 2 JSON at step 0 with zero totals, and one detector state per step-history condition', () => {
    expect(STOP_STATE_VERSION).toBe(2);
    const state = initialStopState(SEED_STOP_POLICY);
    expect(state).toEqual({ version: 2, step: 0, totals: ZERO_TOTALS, elapsedMs: 0, fingerprints: [], retries: 0 });
    expect(ZERO_TOTALS).toEqual({ inputTokens: 0, outputTokens: 0, cost: 0, toolErrors: 0, decisionModelCalls: 0, decisionModelCost: 0 });
    const history = parseStopPolicy({
      version: 2,
      rules: [
        { id: 'a', when: { stall: { detector: 'step_history' } }, then: { kind: 'stop', exit: 'need_help', reason: 'a' } },
        { id: 'b', when: { stall: { detector: 'step_history', patterns: ['cycle'] } }, then: { kind: 'stop', exit: 'need_help', reason: 'b' } },
      ],
    });
    const withStall = initialStopState(history);
    expect(withStall.stall).toHaveLength(2);
    expect(JSON.parse(JSON.stringify(withStall))).toEqual(withStall);
    expect(() => initialStopState({ version: 2, rules: [] } as unknown as StopPolicyDocument)).toThrow(StopPolicyError);
  });
});

describe('assertStopState', () => {
  const state = initialStopState(SEED_STOP_POLICY);
  const bad = (value: unknown) => () => assertStopState(value as StopState);

  it('names the field that is wrong', () => {
    expect(() => assertStopState(state)).not.toThrow();
    expect(bad([])).toThrow('stop state must be an object (from initialStopState or decide), got');
    expect(bad({ ...state, version: 1 })).toThrow('stop state version must be 2, got 1');
    expect(bad({ ...state, step: -1 })).toThrow('state.step must be a non-negative integer, got -1');
    expect(bad({ ...state, totals: { ...state.totals, decisionModelCost: -1 } })).toThrow('state.totals.decisionModelCost must be a non-negative finite number, got -1');
    expect(bad({ ...state, totals: { ...ZERO_TOTALS, judgeCalls: 0, decisionModelCalls: undefined } })).toThrow('state.totals.decisionModelCalls must be a non-negative finite number');
    expect(bad({ ...state, elapsedMs: Number.NaN })).toThrow('state.elapsedMs must be a non-negative finite number');
    expect(bad({ ...state, retries: 0.5 })).toThrow('state.retries must be a non-negative integer');
    expect(bad({ ...state, fingerprints: ['x'.repeat(129)] })).toThrow('state.fingerprints must be an array of progress fingerprints (strings of at most 128 characters)');
    expect(bad({ ...state, stall: {} })).toThrow('state.stall must be an array of stall detector states (version 2)');
    expect(bad({ ...state, stall: [{ version: 2 }] })).toThrow('state.stall[0] must be a stall detector state (version 2), got');
    expect(bad({ ...state, score: [{ version: 1 }] })).toThrow('state.score must be an array of stall score states (from initialStopState or decide); [0] is not one');
    expect(bad({ ...state, last: { digest: 5 } })).toThrow('state.last must be { digest, prior }');
    expect(bad({ ...state, last: { digest: 'd', prior: { ...state, step: 'x' } } })).toThrow('state.last.prior.step must be a non-negative integer');
  });

  it('refuses a stall detector state an earlier version saved, saying what to do, rather than decide on counts it never kept', () => {
    const policy = parseStopPolicy({
      version: 2,
      rules: [
        { id: 'looping', when: { stall: { detector: 'step_history' } }, then: { kind: 'stop', exit: 'need_help', reason: 'looping' } },
        { id: 'more', when: { always: true }, then: { kind: 'continue' } },
      ],
    });
    const current = initialStopState(policy);
    // Version 1 had no pair window and no index of the last new step.
    const { pairs: _pairs, lastNew: _lastNew, ...older } = (current.stall as NonNullable<StopState['stall']>)[0] as NonNullable<StopState['stall']>[number];
    const saved = { ...current, stall: [{ ...older, version: 1 }] };
    expect(bad(saved)).toThrow(
      "state.stall[0] is a stall detector state of version 1, saved by an earlier stopwise; this version (2) counts repeats differently and cannot carry it on: finish that run with the version that began it, or start the run's state afresh with initialStopState(policy)",
    );
    expect(bad({ ...current, last: { digest: 'd', prior: saved } })).toThrow('state.last.prior.stall[0] is a stall detector state of version 1');
  });
});
