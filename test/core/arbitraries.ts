import fc from 'fast-check';
import type { AgentLoopState } from '../../src/core/agent-loop-state.js';
import type { CriterionProbabilities } from '../../src/core/criterion-probabilities.js';
import { createStopPolicy, type StopPolicy } from '../../src/core/stop-policy.js';
import type { TestEvidence } from '../../src/core/test-evidence.js';

/** Probabilities in [0, 1], with the thresholds and 0/1 over-represented. */
export const probability = fc.oneof(
  fc.double({ min: 0, max: 1, noNaN: true }),
  fc.constantFrom(0, 0.4, 0.7, 1, 0.39999999999999997, 0.6999999999999999),
);

export const probabilities: fc.Arbitrary<CriterionProbabilities> = fc.dictionary(
  fc.constantFrom('acceptanceCovered', 'noOpenQuestions', 'docsUpdated', 'noRegression'),
  probability,
  { maxKeys: 4 },
);

export const testEvidence: fc.Arbitrary<TestEvidence> = fc.record({
  passed: fc.boolean(),
  failed: fc.array(fc.constantFrom('a > b', 'suite > test 1', 'x'), { maxLength: 3 }),
  ran: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 500 })),
});

export const loopState: fc.Arbitrary<AgentLoopState> = fc.record({
  step: fc.integer({ min: 0, max: 40 }),
  recentFingerprints: fc.array(fc.constantFrom('f1', 'f2'), { maxLength: 6 }),
});

export const stopPolicy: fc.Arbitrary<StopPolicy> = fc
  .record({
    a: fc.double({ min: 0, max: 1, noNaN: true }),
    b: fc.double({ min: 0, max: 1, noNaN: true }),
    maxSteps: fc.integer({ min: 1, max: 40 }),
    stallRounds: fc.integer({ min: 1, max: 6 }),
  })
  .map(({ a, b, maxSteps, stallRounds }) =>
    createStopPolicy({ doneThreshold: Math.max(a, b), midBandLow: Math.min(a, b), maxSteps, stallRounds }),
  );
