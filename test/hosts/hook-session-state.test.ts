import { describe, expect, it } from 'vitest';
import {
  beginStopAttempt,
  initialHookSessionState,
  isReentry,
  parseHookSessionState,
  recordStopOutcome,
} from '../../src/hosts/hook-session-state.js';

const now = new Date('2026-01-02T03:04:05Z');
const red = { passed: false, failed: ['a'], ran: 3 };

describe('hook session state', () => {
  it('counts blocks and steps within a span, and starts again when the agent is let stop', () => {
    let state = initialHookSessionState(now);
    const first = beginStopAttempt(state, red, 'tried', 3);
    expect(first.loop.step).toBe(1);
    state = recordStopOutcome(state, first, { kind: 'block', message: 'r' }, red, now);
    expect(state).toMatchObject({ step: 1, consecutiveBlocks: 1, totals: { attempts: 1, blocks: 1 }, lastEvidence: red });
    const second = beginStopAttempt(state, red, 'tried', 3);
    expect(second.loop.step).toBe(2);
    expect(second.loop.recentFingerprints).toHaveLength(2);
    state = recordStopOutcome(state, second, { kind: 'handoff' }, red, now);
    expect(state).toMatchObject({ step: 0, consecutiveBlocks: 0, recentFingerprints: [], totals: { attempts: 2, blocks: 1, handoffs: 1 } });
    expect(beginStopAttempt(state, red, 'tried', 3).loop.step).toBe(1);
  });

  it('keeps only the stall window of fingerprints', () => {
    let state = initialHookSessionState(now);
    for (let i = 0; i < 6; i++) state = recordStopOutcome(state, beginStopAttempt(state, red, `out ${i}`, 3), { kind: 'block' }, red, now);
    expect(state.recentFingerprints).toHaveLength(3);
    expect(state.step).toBe(6);
  });

  it('decides re-entry from its own count, and from the host flag only when one block is allowed', () => {
    const fresh = initialHookSessionState(now);
    const blocked = recordStopOutcome(fresh, beginStopAttempt(fresh, red, '', 3), { kind: 'block' }, red, now);
    expect(isReentry(fresh, 1, false)).toBe(false);
    expect(isReentry(fresh, 1, true)).toBe(true);
    expect(isReentry(blocked, 1, false)).toBe(true);
    expect(isReentry(blocked, 2, true)).toBe(false);
    expect(isReentry(blocked, 2, false)).toBe(false);
  });

  it('survives JSON and refuses anything that is not a state', () => {
    const state = recordStopOutcome(initialHookSessionState(now), undefined, { kind: 'allow' }, undefined, now);
    expect(parseHookSessionState(JSON.parse(JSON.stringify(state)))).toEqual(state);
    for (const bad of [null, [], { ...state, version: 2 }, { ...state, step: -1 }, { ...state, recentFingerprints: [1] }, { ...state, totals: null }, { ...state, lastEvidence: { passed: 'no' } }]) {
      expect(parseHookSessionState(bad)).toBeUndefined();
    }
  });
});
