import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTestSummary, type TestSummary } from '../../src/evidence/read-test-summary.js';
import { fixtureText } from './fixtures.js';

const read = (name: string) => readTestSummary(fixtureText(`summaries/${name}`));
const counts = (summary: TestSummary | undefined) =>
  summary === undefined ? undefined : { ran: summary.ran, failed: summary.failed, skipped: summary.skipped, summaries: summary.summaries };

// The expected counts are those of each runner's own summary line in the fixture (see summaries/NOTES.md).
const CASES: readonly (readonly [file: string, runner: string, ran: number, failed: number, skipped: number, summaries?: number])[] = [
  ['node-test-spec-pass.txt', 'node-test', 2, 0, 0],
  ['node-test-spec-fail.txt', 'node-test', 2, 1, 0],
  ['node-test-spec-fail-color.txt', 'node-test', 2, 1, 0],
  ['node-test-spec-skip.txt', 'node-test', 1, 0, 2],
  ['node-test-spec-zero.txt', 'node-test', 0, 0, 0],
  ['node-test-tap-pass.txt', 'node-test', 2, 0, 0],
  ['node-test-tap-fail.txt', 'node-test', 2, 1, 0],
  ['node-test-tap-skip.txt', 'node-test', 1, 0, 2],
  ['node-test-tap-zero.txt', 'node-test', 0, 0, 0],
  ['vitest-pass.txt', 'vitest', 2, 0, 0],
  ['vitest-fail.txt', 'vitest', 2, 1, 0],
  ['vitest-fail-color.txt', 'vitest', 2, 1, 0],
  ['vitest-skip.txt', 'vitest', 1, 0, 2],
  ['vitest-zero.txt', 'vitest', 0, 0, 0],
  ['vitest-zero-pass-with-no-tests.txt', 'vitest', 0, 0, 0],
  ['jest-pass.txt', 'jest', 2, 0, 0],
  ['jest-fail.txt', 'jest', 2, 1, 0],
  ['jest-fail-color.txt', 'jest', 2, 1, 0],
  ['jest-skip.txt', 'jest', 1, 0, 2],
  ['jest-zero.txt', 'jest', 0, 0, 0],
  ['jest-zero-pass-with-no-tests.txt', 'jest', 0, 0, 0],
  ['mocha-pass.txt', 'mocha', 2, 0, 0],
  ['mocha-fail.txt', 'mocha', 2, 1, 0],
  ['mocha-fail-color.txt', 'mocha', 2, 1, 0],
  ['mocha-skip.txt', 'mocha', 1, 0, 2],
  ['mocha-zero.txt', 'mocha', 0, 0, 0],
  ['mocha-zero-empty-suite.txt', 'mocha', 0, 0, 0],
  ['pytest-pass.txt', 'pytest', 2, 0, 0],
  ['pytest-fail.txt', 'pytest', 2, 1, 0],
  ['pytest-fail-color.txt', 'pytest', 2, 1, 0],
  ['pytest-skip.txt', 'pytest', 2, 0, 1],
  ['pytest-zero.txt', 'pytest', 0, 0, 0],
  ['pytest-error.txt', 'pytest', 1, 1, 0],
  ['pytest-q-pass.txt', 'pytest', 2, 0, 0],
  ['pytest-q-fail.txt', 'pytest', 2, 1, 0],
  ['pytest-q-skip.txt', 'pytest', 2, 0, 1],
  ['pytest-q-zero.txt', 'pytest', 0, 0, 0],
  ['pytest-q-error.txt', 'pytest', 1, 1, 0],
  ['cargo-pass.txt', 'cargo', 4, 0, 0, 3],
  ['cargo-fail.txt', 'cargo', 2, 1, 0],
  ['cargo-fail-color.txt', 'cargo', 2, 1, 0],
  ['cargo-skip.txt', 'cargo', 1, 0, 1, 2],
  ['cargo-zero.txt', 'cargo', 0, 0, 0, 2],
  ['go-pass.txt', 'go', 2, 0, 0, 3],
  ['go-fail.txt', 'go', 2, 1, 0, 2],
  ['go-verbose-fail.txt', 'go', 3, 1, 1, 2],
  ['go-zero.txt', 'go', 0, 0, 0, 3],
  ['go-build-failed.txt', 'go', 1, 1, 0, 1],
];

describe('readTestSummary', () => {
  it.each(CASES)('reads %s as %s counted it', (...row) => {
    const [file, runner, ran, failed, skipped, summaries = 1] = row as unknown as [string, string, number, number, number, number?];
    const summary = read(file);
    expect(summary?.runners).toEqual([runner]);
    expect(counts(summary)).toEqual({ ran, failed, skipped, summaries });
  });

  it('reads a coloured output as the plain one', () => {
    for (const runner of ['node-test-spec', 'vitest', 'jest', 'mocha', 'pytest', 'cargo']) {
      expect(counts(read(`${runner}-fail-color.txt`)), runner).toEqual(counts(read(`${runner}-fail.txt`)));
    }
  });

  it('sums the summaries of several runs in one output', () => {
    const both = readTestSummary(`${fixtureText('summaries/jest-pass.txt')}\n${fixtureText('summaries/pytest-q-fail.txt')}`);
    expect(both).toEqual({ runners: ['jest', 'pytest'], summaries: 2, ran: 4, failed: 1, skipped: 0 });
    const twice = readTestSummary(`${fixtureText('summaries/vitest-pass.txt')}\n${fixtureText('summaries/vitest-zero.txt')}`);
    expect(twice).toMatchObject({ runners: ['vitest'], summaries: 2, ran: 2, failed: 0 });
  });

  it('reads nothing from an output without a known summary', () => {
    for (const output of ['', 'all checks pass\n', 'Build succeeded.\n0 warnings\n', fixtureText('summaries/NOTES.md').slice(0, 200)]) {
      expect(readTestSummary(output), output).toBeUndefined();
    }
  });

  it('reads nothing from a line that looks like a summary but does not add up, never a count', () => {
    for (const output of [
      'Tests:       1 failed, 3 passed, 5 total\n',
      'Tests:       2 passed, 2 flaky, 4 total\n',
      '      Tests  2 passed | 1 flaky (3)\n',
      '      Tests  2 passed (3)\n',
      'ℹ tests 3\nℹ pass 3\nℹ suites 1\n',
      '# tests 2\n# pass 2\n# fail 0\n# skipped 1\n',
      'test result: ok. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n',
      'test result: ok. many passed\n',
      '=============== 2 passed, 1 wobbly in 0.12s ===============\n',
      `${fixtureText('summaries/jest-pass.txt')}\nTests:       7 passed, 1 total\n`,
    ]) {
      expect(readTestSummary(output), output).toBeUndefined();
    }
  });

  it('never throws and never counts more failures than runs on any text', () => {
    const pieces = fc.constantFrom(
      'ℹ tests 2', '# pass 1', '# fail 1', 'Tests:       1 failed, 1 passed, 2 total', '      Tests  1 passed (1)', '1 passing (3ms)', '2 failing',
      '==== 1 failed in 0.1s ====', 'test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out', 'ok  \tx/y\t0.1s',
      'FAIL\tx/y [build failed]', '--- FAIL: TestX (0.00s)', '\u001b[31m', '\r', '',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(pieces, fc.string({ maxLength: 40 })), { maxLength: 12 }), (parts) => {
        const summary = readTestSummary(parts.join('\n'));
        if (summary === undefined) return;
        for (const value of [summary.ran, summary.failed, summary.skipped, summary.summaries]) expect(Number.isInteger(value) && value >= 0).toBe(true);
        expect(summary.failed).toBeLessThanOrEqual(summary.ran);
        expect(summary.summaries).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a value that is not text', () => {
    expect(() => readTestSummary(42 as unknown as string)).toThrow(TypeError);
  });
});
