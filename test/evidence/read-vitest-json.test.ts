import { describe, expect, it } from 'vitest';
import { readVitestJson } from '../../src/evidence/read-vitest-json.js';
import { expectCutMessage, fixtureText, hasLoneSurrogate, itReadsFixtures, itSurvivesFuzzing, LONG_MESSAGE_TESTS, MANY_SCRIPTS_MESSAGE, type FixtureCase } from './fixtures.js';

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

const LONG_CASE: FixtureCase = {
  file: 'vitest/long-messages.json',
  summary: 'Tests  6 failed \\| 1 passed (7)',
  ran: 7,
  skipped: 0,
  failed: LONG_MESSAGE_TESTS.map((title) => `long-messages.test.js > ${title}`),
  passed: false,
};

describe('readVitestJson', () => {
  itReadsFixtures([...CASES, LONG_CASE], (text) => readVitestJson(text));

  it('keeps long, multi-line and non-ASCII messages, cut without splitting a surrogate pair', () => {
    const messages = readVitestJson(fixtureText('vitest/long-messages.json')).failures.map((failure) => failure.message);
    expect(messages[0]).toBe(`Error: ${'L'.repeat(992)}…`);
    expect(messages[1]?.startsWith(`Error: ${MANY_SCRIPTS_MESSAGE}\n    at `)).toBe(true);
    expectCutMessage(messages[2], `Error: ${'x'.repeat(992)}`);
    expect(messages[3]?.startsWith('Error: it\'s "quoted" and \\ escaped\n')).toBe(true);
    expectCutMessage(messages[4], 'Error: line 0 éééé');
    expect(messages[4]).toContain('\nline 1 ');
    for (const message of messages) expect(hasLoneSurrogate(message)).toBe(false);
  });

  it('cuts a message before the second half of a surrogate pair', () => {
    const report = JSON.parse(fixtureText('vitest/long-messages.json')) as { testResults: { assertionResults: { failureMessages: string[] }[] }[] };
    const first = report.testResults[0]?.assertionResults[0];
    if (first === undefined) throw new Error('the fixture has no test');
    first.failureMessages = [`${'y'.repeat(998)}${'😀'.repeat(3000)}`];
    expect(readVitestJson(report).failures[0]?.message).toBe(`${'y'.repeat(998)}…`);
  });
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
