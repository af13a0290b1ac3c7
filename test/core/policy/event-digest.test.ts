import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventDigest } from '../../../src/core/policy/event-digest.js';
import type { StopEvent } from '../../../src/core/policy/stop-event.js';
import { eventStream } from './arbitraries.js';

const FP = 'f'.repeat(32);

describe('eventDigest', () => {
  it('keeps its values across versions, so a state saved before can still replay its last step', () => {
    // values written by the digest as it was first released
    const evidence = { passed: false, failed: ['a > b', 'c'], ran: 12, durationMs: 840, command: 'npm test' };
    const judged: StopEvent = { step: 3, tests: evidence, probabilities: { acceptanceCovered: 0.62, noOpenQuestions: 0.91 }, output: 'x' };
    expect(eventDigest(judged, '0123456789abcdef0123456789abcdef')).toBe('d6a54c14a76968f4');
    const counted: StopEvent = {
      step: 9,
      usage: { cost: 0.25, inputTokens: 1200 },
      checks: { lint: true },
      steps: [{ tool: 'bash', input: { command: 'ls' }, output: 'a', exitCode: 0 }],
      tree: 'abc',
      signal: { kind: 'done', note: 'all green' },
    };
    expect(eventDigest(counted, FP)).toBe('77bb6cd2e4f9452f');
  });

  it('is 16 hex characters, the same after a JSON round trip', () => {
    fc.assert(
      fc.property(eventStream(undefined, 1, 1), ([event]) => {
        const digest = eventDigest(event as StopEvent, FP);
        expect(digest).toMatch(/^[0-9a-f]{16}$/);
        expect(eventDigest(JSON.parse(JSON.stringify(event)) as StopEvent, FP)).toBe(digest);
      }),
      { numRuns: 2000 },
    );
  });

  it('does not depend on the order of keys, and tells -0 from nothing else', () => {
    const a: StopEvent = { step: 3, probabilities: { x: 0.5, y: 0.25 }, usage: { cost: 0, inputTokens: 10 } };
    const b: StopEvent = { usage: { inputTokens: 10, cost: -0 }, probabilities: { y: 0.25, x: 0.5 }, step: 3 };
    expect(eventDigest(b, FP)).toBe(eventDigest(a, FP));
  });

  it('changes with any field a rule can read', () => {
    const base: StopEvent = { step: 3, tests: { passed: true, failed: [], ran: 2, treeFingerprint: 't1' }, probabilities: { x: 0.5 } };
    const digests = new Set(
      [
        base,
        { ...base, step: 4 },
        { ...base, probabilities: { x: 0.51 } },
        { ...base, probabilities: { y: 0.5 } },
        { ...base, tests: { passed: true, failed: [], ran: 2, treeFingerprint: 't2' } },
        { ...base, usage: { cost: 1 } },
        { ...base, elapsedMs: 5 },
        { ...base, signal: { kind: 'done', note: '' } },
        { ...base, checks: { lint: true } },
        { ...base, checks: { lint: false } },
        { ...base, human: { timedOut: true } },
        { ...base, tree: 't1' },
        { ...base, verification: { ok: false, unmet: ['docs'] } },
        { ...base, probabilities: undefined, decisionModel: 'none' },
        { ...base, probabilities: undefined, decisionModel: 'unavailable' },
        { ...base, reentered: true },
        { ...base, reentered: false },
        { ...base, taskType: 'bugfix' },
        { ...base, provider: 'token_limit' },
        { ...base, provider: 'failed' },
      ].map((event) => eventDigest(event as StopEvent, FP)),
    );
    expect(digests.size).toBe(20);
    expect(eventDigest(base, 'e'.repeat(32))).not.toBe(eventDigest(base, FP));
  });
});
