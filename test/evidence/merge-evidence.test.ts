import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TestEvidence } from '../../src/core/test-evidence.js';
import { mergeEvidence } from '../../src/evidence/merge-evidence.js';
import { readJUnitXml } from '../../src/evidence/read-junit-xml.js';
import { readTap } from '../../src/evidence/read-tap.js';
import { expectInvariants, fixtureText } from './fixtures.js';

describe('mergeEvidence', () => {
  it('adds the counts of several reports and keeps every failed name once', async () => {
    const merged = mergeEvidence([
      await readJUnitXml(fixtureText('pytest/fail.junit.xml')),
      await readTap(fixtureText('node-test/skip-todo.tap')),
      await readJUnitXml(fixtureText('pytest/fail.junit.xml')),
    ]);
    expectInvariants(merged);
    expect(merged).toMatchObject({ passed: false, ran: 14, skipped: 4 });
    expect(merged.failed).toEqual(['test_math.TestDivision > test_rounds_down', 'test_parser > test_raises_on_bad_input', 'test_parser > test_compares_objects']);
    expect(merged.failures[0]?.message).toBe('assert (7 / 2) == 3');
  });

  it('passes only when every part passed', async () => {
    const pass = await readTap(fixtureText('node-test/pass.tap'));
    expect(mergeEvidence([pass, pass])).toMatchObject({ passed: true, ran: 16 });
    const died = await readTap(fixtureText('tap/perl-died.tap'));
    expect(mergeEvidence([pass, died])).toMatchObject({ passed: false, reason: 'incomplete' });
    expect(mergeEvidence([pass, { passed: false, failed: [], ran: 2 }])).toMatchObject({ passed: false, reason: 'incomplete' });
  });

  it('is "no tests ran" for an empty list', () => {
    expect(mergeEvidence([])).toMatchObject({ passed: false, ran: 0, total: 0 });
  });

  it('keeps the invariants for any list of evidence', () => {
    const evidence = fc
      .record({
        passed: fc.boolean(),
        failed: fc.uniqueArray(fc.string({ maxLength: 4 }), { maxLength: 4 }),
        ran: fc.nat(10),
        skipped: fc.nat(5),
      })
      .map((e): TestEvidence => ({ ...e, ran: e.ran + e.failed.length }));
    fc.assert(
      fc.property(fc.array(evidence, { maxLength: 5 }), (list) => {
        const merged = mergeEvidence(list);
        expectInvariants(merged);
        expect(merged.ran).toBe(list.reduce((sum, e) => sum + e.ran, 0));
        // a part with no test and no failure (an empty package) does not block the others
        expect(merged.passed).toBe(merged.ran > 0 && list.every((e) => e.failed.length === 0 && (e.passed || e.ran === 0)));
      }),
      { numRuns: 500 },
    );
  });
});
