import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTap } from '../../src/evidence/read-tap.js';
import { readVitestJson } from '../../src/evidence/read-vitest-json.js';
import { blockReasonFromCompletion, describeFailedTests, describeProbabilities } from '../../src/hosts/block-reason.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/evidence');

describe('blockReasonFromCompletion', () => {
  it('names the failed tests and adds each message on one line, without its stack frames', () => {
    const reason = blockReasonFromCompletion({
      done: false,
      reason: 'tests_failed',
      failed: ['parser > keeps line numbers'],
      failures: [{ name: 'parser > keeps line numbers', message: 'expected 3 to be 4\n    at parser.test.ts:12:5' }],
    });
    expect(reason).toBe(
      '1 test failed: parser > keeps line numbers. Fix it and run the tests again before you stop.\n- parser > keeps line numbers: expected 3 to be 4',
    );
  });

  it('keeps the values of a node:test assertion, which come after its first line', async () => {
    const evidence = await readTap(createReadStream(join(FIXTURES, 'node-test/fail.tap')));
    const reason = blockReasonFromCompletion({ done: false, reason: 'tests_failed', failed: evidence.failed, failures: evidence.failures ?? [] });
    expect(reason).toContain('\n- math > division > rounds down: Expected values to be strictly equal: 3.5 !== 3\n');
    const deep = reason.split('\n').find((line) => line.startsWith('- parser > compares objects: '));
    expect(deep).toBe('- parser > compares objects: Expected values to be strictly deep-equal: + actual - expected { a: 1, b: [ 1, 2, + 3 - 4 ] }');
  });

  it('drops the stack frames of a vitest failure and clips a long message to 300 characters', () => {
    const evidence = readVitestJson(readFileSync(join(FIXTURES, 'vitest/fail.json'), 'utf8'));
    const reason = blockReasonFromCompletion({ done: false, reason: 'tests_failed', failed: evidence.failed, failures: evidence.failures ?? [] });
    expect(reason).toContain('- math.test.js > math > division > rounds down: AssertionError: expected 3.5 to be 3 // Object.is equality\n');
    expect(reason).not.toMatch(/ at (file:|\/)/);
    const long = blockReasonFromCompletion({ done: false, reason: 'tests_failed', failed: ['t'], failures: [{ name: 't', message: `a\n${'b '.repeat(400)}` }] });
    const detail = long.split('\n')[1] ?? '';
    expect(detail.slice('- t: '.length)).toHaveLength(300);
    expect(detail).toMatch(/^- t: a b b .*\.\.\.$/);
  });

  it('clips names and messages without keeping half of a surrogate pair', () => {
    const message = `${'m'.repeat(296)}😀😀😀`;
    const name = `${'n'.repeat(196)}😀😀😀`;
    const reason = blockReasonFromCompletion({ done: false, reason: 'tests_failed', failed: [name], failures: [{ name, message }] });
    expect(reason).toContain(`- ${'n'.repeat(196)}...: ${'m'.repeat(296)}...`);
    expect(reason).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it('says when the run failed outside any single test', () => {
    expect(blockReasonFromCompletion({ done: false, reason: 'tests_failed', failed: [] })).toMatch(/failed outside any single test/);
  });

  it('cuts long lists and long names', () => {
    const failed = Array.from({ length: 14 }, (_, i) => `t${i}`);
    expect(describeFailedTests(failed)).toBe('14 tests failed: t0; t1; t2; t3; t4; t5; t6; t7; t8; t9 and 4 more');
    expect(describeFailedTests(['x'.repeat(1000)]).length).toBeLessThan(260);
  });

  it('asks for the suite when no tests ran, with the runner explanation when there is one', () => {
    expect(blockReasonFromCompletion({ done: false, reason: 'no_tests_ran' })).toMatch(/^No tests ran, run the suite/);
    expect(
      blockReasonFromCompletion({ done: false, reason: 'no_tests_ran', failures: [{ name: 'test command', message: 'exited with code 127' }] }),
    ).toMatch(/\n- test command: exited with code 127$/);
  });

  it('quotes the probabilities, lowest first, and the threshold', () => {
    const reason = blockReasonFromCompletion({
      done: false,
      reason: 'criteria_below_threshold',
      probabilities: { noOpenQuestions: 0.9, acceptanceCovered: 0.41234 },
      doneThreshold: 0.8,
    });
    expect(reason).toContain('acceptanceCovered = 0.412, noOpenQuestions = 0.9 (below 0.8: acceptanceCovered)');
    expect(reason).toContain('must reach 0.8');
  });

  it('refuses a completion that is done', () => {
    expect(() => blockReasonFromCompletion({ done: true, reason: 'tests_and_criteria_passed' })).toThrow(TypeError);
  });

  it('describes probabilities of no criteria', () => {
    expect(describeProbabilities({})).toBe('no criteria');
  });
});
