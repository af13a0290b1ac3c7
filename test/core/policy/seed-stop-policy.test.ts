import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { baselineDecideCompletionAction } from '../../../bench/baseline-action-table.js';
import { appendFingerprint } from '../../../src/core/stall.js';
import { decideCompletionAction } from '../../../src/core/decide-completion-action.js';
import { fingerprintProgress } from '../../../src/core/fingerprint.js';
import { decide, initialStopState, needsJudgement } from '../../../src/core/policy/decide.js';
import { parseStopPolicy } from '../../../src/core/policy/parse-stop-policy.js';
import { SEED_RULE_IDS, SEED_STOP_POLICY, seedStopPolicy } from '../../../src/core/policy/seed-stop-policy.js';
import { toCompletionAction } from '../../../src/core/policy/to-completion-action.js';
import { createStopPolicy, DEFAULT_POLICY } from '../../../src/core/stop-policy.js';
import { stopPolicy } from '../arbitraries.js';
import { eventStream, seedEventBody } from './arbitraries.js';

describe('SEED_STOP_POLICY', () => {
  it('is the action table with the default numbers, rule by rule', () => {
    expect(SEED_STOP_POLICY.rules.map((rule) => rule.id)).toEqual(SEED_RULE_IDS);
    expect(SEED_STOP_POLICY.rules[0]).toEqual({
      id: 'hard_cap',
      when: { limit: { of: 'steps', max: 20 } },
      then: { kind: 'stop', exit: 'limit', reason: 'hard_cap' },
    });
    expect(SEED_STOP_POLICY.rules[1]?.when).toEqual({ stall: { detector: 'identical_fingerprints', rounds: 3 } });
    expect(Object.isFrozen(SEED_STOP_POLICY.rules[3]?.when)).toBe(true);
    expect(seedStopPolicy(createStopPolicy({ maxSteps: 7 })).rules[0]?.when).toEqual({ limit: { of: 'steps', max: 7 } });
    // Whatever createStopPolicy accepts, the preset takes: a long stall window too.
    expect(seedStopPolicy(createStopPolicy({ stallRounds: 500, maxSteps: 10_000 })).rules[1]?.when).toEqual({ stall: { detector: 'identical_fingerprints', rounds: 500 } });
  });

  it('is made once per set of numbers: the same numbers give the same frozen document', () => {
    fc.assert(
      fc.property(stopPolicy, (policy) => {
        const document = seedStopPolicy(policy);
        expect(seedStopPolicy(createStopPolicy({ ...policy }))).toBe(document);
        expect(Object.isFrozen(document.rules)).toBe(true);
        expect(parseStopPolicy(JSON.parse(JSON.stringify(document)))).toEqual(document);
      }),
      { numRuns: 200 },
    );
    expect(seedStopPolicy()).toEqual(SEED_STOP_POLICY);
    expect(() => seedStopPolicy({ ...DEFAULT_POLICY, maxSteps: 0 })).toThrow(/policy\.maxSteps/);
  });

  it('survives a JSON round trip as the same document', () => {
    expect(JSON.parse(JSON.stringify(SEED_STOP_POLICY))).toEqual(SEED_STOP_POLICY);
  });
});

describe('the seed preset through decide gives the action table of before, event by event', { timeout: 120_000 }, () => {
  it('agrees with the original action table and with decideCompletionAction on more than 20,000 random events', () => {
    let events = 0;
    fc.assert(
      fc.property(stopPolicy, eventStream(seedEventBody, 8, 25), (policy, stream) => {
        const document = seedStopPolicy(policy);
        let state = initialStopState(document);
        let recent: string[] = [];
        for (const event of stream) {
          const { tests, probabilities, output } = event as Required<typeof event>;
          recent = appendFingerprint(recent, fingerprintProgress(tests, output), policy.stallRounds);
          const loop = { step: event.step, recentFingerprints: recent };
          const expected = baselineDecideCompletionAction(probabilities, tests, loop, policy);
          const result = decide(document, state, { step: event.step, tests, probabilities, output });
          // Compared as JSON text (same keys in the same order): toEqual on 100,000 events would dominate the run.
          const want = JSON.stringify(expected);
          const viaEngine = JSON.stringify(toCompletionAction(result.decision, policy));
          if (viaEngine !== want) expect(viaEngine).toBe(want);
          const viaProjection = JSON.stringify(decideCompletionAction(probabilities, tests, loop, policy));
          if (viaProjection !== want) expect(viaProjection).toBe(want);
          const lazy = needsJudgement(document, state, { step: event.step, tests, output });
          if (lazy !== expected.rule > 3) expect(lazy).toBe(expected.rule > 3);
          if (!lazy) {
            const withoutModel = JSON.stringify(toCompletionAction(decide(document, state, { step: event.step, tests, output }).decision, policy));
            if (withoutModel !== want) expect(withoutModel).toBe(want);
          }
          state = result.state;
          events++;
        }
      }),
      { numRuns: 1500 },
    );
    expect(events).toBeGreaterThan(20_000);
  });
});
