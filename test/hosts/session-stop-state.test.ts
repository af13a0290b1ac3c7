import { describe, expect, it } from 'vitest';
import { FINGERPRINT_LENGTH } from '../../src/core/fingerprint.js';
import { decide } from '../../src/core/policy/decide.js';
import { HOOK_STOP_POLICY } from '../../src/core/policy/hook-stop-policy.js';
import { initialStopState } from '../../src/core/policy/stop-state.js';
import { initialHookSessionState, parseHookSessionState, recordStopOutcome, sessionStopState } from '../../src/hosts/hook-session-state.js';

const now = new Date('2026-12-01T10:00:00Z');
const none = { passed: false, failed: [], ran: 0 };

describe('the stop state in the hook session state', () => {
  it('is saved after a block, with the span counters equal to it, and dropped when the agent is let stop', () => {
    const decided = decide(HOOK_STOP_POLICY, initialStopState(HOOK_STOP_POLICY), { step: 1, tests: none, output: 'x' });
    const attempt = { loop: { step: decided.state.step, recentFingerprints: decided.state.fingerprints }, stopState: decided.state };
    const blocked = recordStopOutcome(initialHookSessionState(now), attempt, { kind: 'block' }, none, now);
    expect(blocked).toMatchObject({ step: 1, consecutiveBlocks: 1, recentFingerprints: decided.state.fingerprints, stopState: decided.state });
    const stored = parseHookSessionState(JSON.parse(JSON.stringify(blocked)));
    expect(stored).toBeDefined();
    expect(sessionStopState(stored!, HOOK_STOP_POLICY)).toEqual(decided.state);
    const allowed = recordStopOutcome(blocked, attempt, { kind: 'handoff' }, none, now);
    expect(allowed.stopState).toBeUndefined();
    expect(sessionStopState(allowed, HOOK_STOP_POLICY)).toEqual(initialStopState(HOOK_STOP_POLICY));
  });

  it('is rebuilt from the span counters for a state saved without one, or with one that does not match them', () => {
    const old = { ...initialHookSessionState(now), step: 2, consecutiveBlocks: 1, recentFingerprints: ['not-a-fingerprint', 'a'.repeat(FINGERPRINT_LENGTH)] };
    const rebuilt = sessionStopState(old, HOOK_STOP_POLICY);
    expect(rebuilt).toMatchObject({ version: 1, step: 2, retries: 1 });
    expect(rebuilt.fingerprints).toEqual(['a'.repeat(FINGERPRINT_LENGTH)]);
    const mismatched = { ...old, stopState: { ...initialStopState(HOOK_STOP_POLICY), step: 7 } };
    expect(sessionStopState(mismatched, HOOK_STOP_POLICY)).toEqual(rebuilt);
    const garbage = { ...old, stopState: { version: 9 } as never };
    expect(sessionStopState(garbage, HOOK_STOP_POLICY)).toEqual(rebuilt);
  });
});
