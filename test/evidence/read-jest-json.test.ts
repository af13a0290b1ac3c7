import { describe, expect, it } from 'vitest';
import { readJestJson } from '../../src/evidence/read-jest-json.js';
import { expectCutMessage, fixtureText, hasLoneSurrogate, itReadsFixtures, itSurvivesFuzzing, LONG_MESSAGE_TESTS, MANY_SCRIPTS_MESSAGE, type FixtureCase } from './fixtures.js';

const CASES: readonly FixtureCase[] = [
  { file: 'jest/pass.json', summary: 'Tests:       6 passed, 6 total', ran: 6, skipped: 0, failed: [], passed: true },
  {
    file: 'jest/fail.json',
    summary: 'Tests:       3 failed, 3 passed, 6 total',
    ran: 6,
    skipped: 0,
    failed: ['math.test.js › math › division › rounds down', 'parser.test.js › parser › throws a TypeError on <bad> & input', 'parser.test.js › parser › compares objects'],
    passed: false,
  },
  // 4 skipped + 1 todo
  { file: 'jest/skip-todo.json', summary: 'Tests:       4 skipped, 1 todo, 2 passed, 7 total', ran: 2, skipped: 5, failed: [], passed: true },
  // the suite that failed to run counts as one failed test named after its file
  { file: 'jest/errored.json', summary: 'Test Suites: 1 failed, 1 passed, 2 total / Tests:       1 passed, 1 total', ran: 2, skipped: 0, failed: ['broken.test.js'], passed: false },
  { file: 'jest/zero.json', summary: 'No tests found, exiting with code 0', ran: 0, skipped: 0, failed: [], passed: false },
];

const LONG_CASE: FixtureCase = {
  file: 'jest/long-messages.json',
  summary: 'Tests:       6 failed, 1 passed, 7 total',
  ran: 7,
  skipped: 0,
  failed: LONG_MESSAGE_TESTS.map((title) => `long-messages.test.js › ${title}`),
  passed: false,
};

describe('readJestJson', () => {
  itReadsFixtures([...CASES, LONG_CASE], (text) => readJestJson(text));

  it('keeps long, multi-line and non-ASCII messages, cut without splitting a surrogate pair', () => {
    const messages = readJestJson(fixtureText('jest/long-messages.json')).failures.map((failure) => failure.message);
    expect(messages[0]).toBe(`Error: ${'L'.repeat(992)}…`);
    expect(messages[1]?.startsWith(`Error: ${MANY_SCRIPTS_MESSAGE}\n    at `)).toBe(true);
    expectCutMessage(messages[2], `Error: ${'x'.repeat(992)}`);
    expect(messages[3]?.startsWith('Error: it\'s "quoted" and \\ escaped\n')).toBe(true);
    expectCutMessage(messages[4], 'Error: line 0 éééé');
    expect(messages[4]).toContain('\nline 1 ');
    for (const message of messages) expect(hasLoneSurrogate(message)).toBe(false);
  });

  it('cuts a message before the second half of a surrogate pair', () => {
    const report = JSON.parse(fixtureText('jest/long-messages.json')) as { testResults: { assertionResults: { failureMessages: string[] }[] }[] };
    const first = report.testResults[0]?.assertionResults[0];
    if (first === undefined) throw new Error('the fixture has no test');
    first.failureMessages = [`${'y'.repeat(998)}${'😀'.repeat(3000)}`];
    expect(readJestJson(report).failures[0]?.message).toBe(`${'y'.repeat(998)}…`);
  });
  itSurvivesFuzzing(CASES, (bytes) => readJestJson(bytes.toString('utf8')));

  it('takes the parsed object as well as the text', () => {
    for (const { file } of CASES) expect(readJestJson(JSON.parse(fixtureText(file)) as object)).toEqual(readJestJson(fixtureText(file)));
  });

  it('keeps the first lines of the failure message', () => {
    const evidence = readJestJson(fixtureText('jest/fail.json'));
    const failure = evidence.failures.find((f) => f.name.endsWith('rounds down'));
    expect(failure?.message).toMatch(/^Error: expect\(received\)\.toBe\(expected\)/);
    expect(failure?.message).not.toMatch(/\u001b\[/);
  });

  it('does not pass a report that says the run failed although no test did', () => {
    const report = JSON.parse(fixtureText('jest/pass.json')) as Record<string, unknown>;
    expect(readJestJson({ ...report, success: false })).toMatchObject({ passed: false, ran: 6, reason: 'incomplete' });
  });
});
