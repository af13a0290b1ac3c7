import { describe, expect, it } from 'vitest';
import { readVitestJson } from '../../src/evidence/read-vitest-json.js';
import { fixtureText, itReadsFixtures, itSurvivesFuzzing, type FixtureCase } from './fixtures.js';

const CASES: readonly FixtureCase[] = [
  { file: 'vitest/pass.json', summary: 'Tests  6 passed (6)', ran: 6, skipped: 0, failed: [], passed: true },
  {
    file: 'vitest/fail.json',
    summary: 'Tests  3 failed \\| 3 passed (6)',
    ran: 6,
    skipped: 0,
    failed: [
      'math.test.js > math > division > rounds down',
      'parser.test.js > parser > throws a TypeError on <bad> & input',
      'parser.test.js > parser > compares objects',
    ],
    passed: false,
  },
  { file: 'vitest/skip-todo.json', summary: 'Tests  2 passed \\| 4 skipped \\| 1 todo (7)', ran: 2, skipped: 5, failed: [], passed: true },
  // the file that failed to load counts as one failed test named after it
  { file: 'vitest/errored.json', summary: 'Test Files  1 failed \\| 1 passed (2) / Tests  1 passed (1)', ran: 2, skipped: 0, failed: ['broken.test.js'], passed: false },
  { file: 'vitest/zero.json', summary: 'No test files found, exiting with code 0', ran: 0, skipped: 0, failed: [], passed: false },
];

describe('readVitestJson', () => {
  itReadsFixtures(CASES, (text) => readVitestJson(text));
  itSurvivesFuzzing(CASES, (bytes) => readVitestJson(bytes.toString('utf8')));

  it('takes the parsed object as well as the text', () => {
    for (const { file } of CASES) expect(readVitestJson(JSON.parse(fixtureText(file)) as object)).toEqual(readVitestJson(fixtureText(file)));
  });

  it('keeps the message of a file that failed to load', () => {
    const evidence = readVitestJson(fixtureText('vitest/errored.json'));
    expect(evidence.failures[0]?.message).toMatch(/^Cannot find module '\.\/missing-module\.js'/);
  });

  it('takes the duration from the start of the run to the end of the last file', () => {
    expect(readVitestJson(fixtureText('vitest/pass.json')).durationMs).toBeGreaterThan(0);
  });
});
