import fc from 'fast-check';
import type { RuleCondition } from '../../../src/core/policy/stop-policy-document.js';
import type { StopEvent } from '../../../src/core/policy/stop-event.js';
import { probabilities, testEvidence } from '../arbitraries.js';

/** Outputs from a small set, so that identical fingerprints (stalls) happen often. */
export const output = fc.constantFrom('', 'edited parser.ts', 'ran the suite', 'x'.repeat(300));

/** One event without its step: what the seed preset reads, plus the fields other conditions read. */
export const eventBody = fc.record(
  {
    tests: testEvidence,
    probabilities,
    output,
    usage: fc.record({ inputTokens: fc.nat(5000), outputTokens: fc.nat(2000), cost: fc.double({ min: 0, max: 1, noNaN: true }) }, { requiredKeys: [] }),
    elapsedMs: fc.nat(10_000_000),
    signal: fc.option(fc.record({ kind: fc.constantFrom('done', 'give_up', 'need_help'), note: fc.string({ maxLength: 8 }) }), { nil: undefined }),
    checks: fc.dictionary(fc.constantFrom('lint', 'types', 'build'), fc.boolean(), { maxKeys: 3 }),
    human: fc.record({ timedOut: fc.boolean(), answer: fc.string({ maxLength: 8 }) }, { requiredKeys: ['timedOut'] }),
  },
  { requiredKeys: ['tests', 'output'] },
) as fc.Arbitrary<Omit<StopEvent, 'step'>>;

/** What the seed preset reads: `{ tests, probabilities, output }`. */
export const seedEventBody = fc.record({ tests: testEvidence, probabilities, output }) as fc.Arbitrary<Omit<StopEvent, 'step'>>;

/** A stream of events with increasing (sometimes skipping) step numbers. */
export function eventStream(body: fc.Arbitrary<Omit<StopEvent, 'step'>> = eventBody, minLength = 1, maxLength = 25): fc.Arbitrary<StopEvent[]> {
  return fc.array(fc.tuple(fc.integer({ min: 1, max: 3 }), body), { minLength, maxLength }).map((items) => {
    let step = 0;
    return items.map(([gap, event]) => {
      step += gap === 3 ? 2 : 1;
      return { ...event, step } as StopEvent;
    });
  });
}

const leaf: fc.Arbitrary<RuleCondition> = fc.oneof(
  fc.integer({ min: 1, max: 30 }).map((max) => ({ limit: { of: 'steps' as const, max } })),
  fc.integer({ min: 0, max: 20_000 }).map((max) => ({ limit: { of: 'totalTokens' as const, max } })),
  fc.constantFrom('no_tests_ran', 'failed', 'passed').map((tests) => ({ tests }) as RuleCondition),
  fc.double({ min: 0, max: 1, noNaN: true }).map((gte) => ({ criteria: { gte } })),
  fc.double({ min: 0, max: 1, noNaN: true }).map((lt) => ({ criteria: { criterion: 'acceptanceCovered', lt } })),
  fc.constantFrom('done', 'give_up', 'need_help', 'none').map((signal) => ({ signal }) as RuleCondition),
  fc.constantFrom('passed', 'failed', 'missing').map((is) => ({ check: { name: 'lint', is } }) as RuleCondition),
  fc.constantFrom('answered', 'timed_out').map((human) => ({ human }) as RuleCondition),
  fc.integer({ min: 1, max: 4 }).map((rounds) => ({ stall: { detector: 'identical_fingerprints' as const, rounds } })),
  fc.constant({ always: true as const }),
);

/** Random condition trees over every kind of leaf, with all, any, not and atLeast up to three levels deep. */
export const condition: fc.Arbitrary<RuleCondition> = fc.letrec<{ node: RuleCondition }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('node'), { maxLength: 3 }).map((all) => ({ all })),
    fc.array(tie('node'), { maxLength: 3 }).map((any) => ({ any })),
    tie('node').map((not) => ({ not })),
    fc
      .array(tie('node'), { minLength: 1, maxLength: 3 })
      .chain((of) => fc.integer({ min: 1, max: of.length }).map((count) => ({ atLeast: { count, of } }))),
  ),
})).node;
