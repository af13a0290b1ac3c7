import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EvidenceError, isEvidenceError } from '../../src/evidence/evidence-error.js';
import { readJUnitXml } from '../../src/evidence/read-junit-xml.js';
import {
  expectCutMessage,
  expectInvariants,
  fixtureBytes,
  fixtureText,
  hasLoneSurrogate,
  itReadsEverySource,
  itReadsFixtures,
  itSurvivesFuzzing,
  LONG_MESSAGE_TESTS,
  type FixtureCase,
} from './fixtures.js';

const VITEST_FAILED = [
  'math.test.js > math > division > rounds down',
  'parser.test.js > parser > throws a TypeError on <bad> & input',
  'parser.test.js > parser > compares objects',
];
const NODE_FAILED = ['math > division > rounds down', 'parser > throws a TypeError on <bad> & input', 'parser > compares objects'];

const CASES: readonly FixtureCase[] = [
  { file: 'vitest/pass.junit.xml', summary: 'Tests  6 passed (6)', ran: 6, skipped: 0, failed: [], passed: true },
  { file: 'vitest/fail.junit.xml', summary: 'Tests  3 failed \\| 3 passed (6)', ran: 6, skipped: 0, failed: VITEST_FAILED, passed: false },
  // 2 passed, 4 skipped + 1 todo counted as skipped
  { file: 'vitest/skip-todo.junit.xml', summary: 'Tests  2 passed \\| 4 skipped \\| 1 todo (7)', ran: 2, skipped: 5, failed: [], passed: true },
  // 1 passed test, and the file that failed to load as one failed test case
  { file: 'vitest/errored.junit.xml', summary: 'Test Files  1 failed \\| 1 passed (2) / Tests  1 passed (1)', ran: 2, skipped: 0, failed: ['broken.test.js'], passed: false },
  { file: 'vitest/zero.junit.xml', summary: 'No test files found, exiting with code 0', ran: 0, skipped: 0, failed: [], passed: false },
  { file: 'jest/pass.junit.xml', summary: 'Tests:       6 passed, 6 total', ran: 6, skipped: 0, failed: [], passed: true },
  {
    file: 'jest/fail.junit.xml',
    summary: 'Tests:       3 failed, 3 passed, 6 total',
    ran: 6,
    skipped: 0,
    failed: ['math division rounds down', 'parser throws a TypeError on <bad> & input', 'parser compares objects'],
    passed: false,
  },
  // jest-junit writes the todo as a plain passing test case: 2 passed + the todo ran, 4 skipped
  { file: 'jest/skip-todo.junit.xml', summary: 'Tests:       4 skipped, 1 todo, 2 passed, 7 total', ran: 3, skipped: 4, failed: [], passed: true },
  // jest-junit's defaults leave out the file that failed to load: only the exit code (1) tells
  { file: 'jest/errored.junit.xml', summary: 'Test Suites: 1 failed, 1 passed, 2 total / Tests:       1 passed, 1 total', ran: 1, skipped: 0, failed: [], passed: true },
  {
    file: 'jest/errored-suite-errors.junit.xml',
    summary: 'Test Suites: 1 failed, 1 passed, 2 total / Tests:       1 passed, 1 total',
    ran: 3,
    skipped: 0,
    failed: ['Test suite failed to run > s/errored/broken.test.js'],
    passed: false,
  },
  { file: 'jest/zero.junit.xml', summary: 'No tests found, exiting with code 0', ran: 0, skipped: 0, failed: [], passed: false },
  // node counts the parent of two subtests as a test too: 9 - 1
  { file: 'node-test/pass.junit.xml', summary: '`tests 9` `suites 3` `pass 9` `fail 0`', ran: 8, skipped: 0, failed: [], passed: true },
  { file: 'node-test/fail.junit.xml', summary: '`tests 6` `suites 3` `pass 3` `fail 3`', ran: 6, skipped: 0, failed: NODE_FAILED, passed: false },
  // 2 skipped + 2 todo + the skipped describe, which JUnit writes as a skipped test case
  { file: 'node-test/skip-todo.junit.xml', summary: '`tests 6` `suites 2` `pass 2` `fail 0` `cancelled 0` `skipped 2` `todo 2`', ran: 2, skipped: 5, failed: [], passed: true },
  {
    file: 'node-test/errored.junit.xml',
    summary: '`tests 2` `suites 0` `pass 1` `fail 1`',
    ran: 2,
    skipped: 0,
    failed: ['/home/dev/projects/node-test-sample/s/errored/broken.test.mjs'],
    passed: false,
  },
  { file: 'node-test/zero.junit.xml', summary: '`tests 0` `suites 0` `pass 0` `fail 0`', ran: 0, skipped: 0, failed: [], passed: false },
  { file: 'pytest/pass.junit.xml', summary: '`6 passed in 0.01s`', ran: 6, skipped: 0, failed: [], passed: true },
  {
    file: 'pytest/fail.junit.xml',
    summary: '`3 failed, 3 passed in 0.03s`',
    ran: 6,
    skipped: 0,
    failed: ['test_math.TestDivision > test_rounds_down', 'test_parser > test_raises_on_bad_input', 'test_parser > test_compares_objects'],
    passed: false,
  },
  // 3 skipped + 1 xfailed
  { file: 'pytest/skip-todo.junit.xml', summary: '`2 passed, 3 skipped, 1 xfailed in 0.02s`', ran: 2, skipped: 4, failed: [], passed: true },
  { file: 'pytest/errored.junit.xml', summary: '`1 error in 0.04s`', ran: 1, skipped: 0, failed: ['pytest > test_broken'], passed: false },
  {
    file: 'pytest/errored-continue.junit.xml',
    summary: '`1 passed, 2 errors in 0.02s`',
    ran: 3,
    skipped: 0,
    failed: ['pytest > test_broken', 'test_fixture_error > test_uses_database'],
    passed: false,
  },
  { file: 'pytest/zero.junit.xml', summary: '`no tests ran in 0.00s`', ran: 0, skipped: 0, failed: [], passed: false },
  { file: 'junit-other/surefire-error.xml', summary: '`tests="1" errors="1"`', ran: 1, skipped: 0, failed: ['surefire.MyTest > test'], passed: false },
  {
    file: 'junit-other/gotestsum.xml',
    summary: 'gotestsum.xml`: 47 test cases',
    ran: 43,
    skipped: 4,
    failed: [
      'github.com/gotestyourself/gotestyourself/testjson/internal/badmain > TestMain',
      'github.com/gotestyourself/gotestyourself/testjson/internal/stub > TestFailed',
      'github.com/gotestyourself/gotestyourself/testjson/internal/stub > TestFailedWithStderr',
      'github.com/gotestyourself/gotestyourself/testjson/internal/stub > TestNestedWithFailure/c',
      'github.com/gotestyourself/gotestyourself/testjson/internal/stub > TestNestedWithFailure',
    ],
    passed: false,
  },
  { file: 'junit-other/nextest.xml', summary: '`tests="3" failures="1"`', ran: 3, skipped: 0, failed: ['nextest-tests::basic > test_failure_assert'], passed: false },
];

const LONG_CASES: readonly FixtureCase[] = [
  { file: 'node-test/long-messages.junit.xml', summary: '`tests 7` `suites 0` `pass 1` `fail 6`', ran: 7, skipped: 0, failed: [...LONG_MESSAGE_TESTS], passed: false },
  {
    file: 'vitest/long-messages.junit.xml',
    summary: 'Tests  6 failed \\| 1 passed (7)',
    ran: 7,
    skipped: 0,
    failed: LONG_MESSAGE_TESTS.map((title) => `long-messages.test.js > ${title}`),
    passed: false,
  },
];

describe('readJUnitXml on reports written by real runners', () => {
  itReadsFixtures(CASES, (text) => readJUnitXml(text));
  itReadsFixtures(LONG_CASES, (text) => readJUnitXml(text));
  itReadsEverySource(CASES, (source) => readJUnitXml(source));

  it('keeps the failure message, trimmed, with entities and CDATA decoded', async () => {
    const vitest = await readJUnitXml(fixtureBytes('vitest/fail.junit.xml'));
    expect(vitest.failures[1]).toEqual({
      name: 'parser.test.js > parser > throws a TypeError on <bad> & input',
      message: "Cannot read properties of undefined (reading 'length')",
    });
    const cdata = await readJUnitXml(
      '<testsuite name="s"><testcase classname="c" name="t"><failure><![CDATA[  boom <&> \n at x  ]]></failure></testcase></testsuite>',
    );
    expect(cdata.failures).toEqual([{ name: 'c > t', message: 'boom <&> \n at x' }]);
    const nextest = await readJUnitXml(fixtureBytes('junit-other/nextest.xml'));
    expect(nextest.failures[0]?.message).toMatch(/^thread 'test_failure_assert' panicked at tests\/basic\.rs:19:5:\nassertion/);
  });

  it('keeps long, multi-line and non-ASCII messages, cut without splitting a surrogate pair', async () => {
    const node = (await readJUnitXml(fixtureBytes('node-test/long-messages.junit.xml'))).failures.map((failure) => failure.message);
    expect(node[0]).toBe(`${'L'.repeat(999)}…`);
    // node's JUnit reporter drops the line breaks of the message attribute
    expect(node[1]).toBe('première ligne : café, naïve, Ærøskøbing第二行：测试失败了third line 🎉🚀 done');
    expect(node[2]).toBe(`${'x'.repeat(998)}…`);
    expectCutMessage(node[4], 'line 0 éééé');
    expectCutMessage(node[5], 'Expected values to be strictly equal:');
    const vitest = (await readJUnitXml(fixtureBytes('vitest/long-messages.junit.xml'))).failures.map((failure) => failure.message);
    expect(vitest[0]).toBe(`${'L'.repeat(999)}…`);
    expect(vitest[1]).toBe('première ligne : café, naïve, Ærøskøbing 第二行：测试失败了 third line 🎉🚀 done');
    expect(vitest[2]).toBe(`${'x'.repeat(998)}…`);
    expect(vitest[3]).toBe('it\'s "quoted" and \\ escaped');
    for (const message of [...node, ...vitest]) expect(hasLoneSurrogate(message)).toBe(false);
  });

  it('cuts a message in the body of <failure> before the second half of a surrogate pair', async () => {
    const body = `${'y'.repeat(998)}${'😀'.repeat(3000)}`;
    const evidence = await readJUnitXml(`<testsuite><testcase name="t"><failure>${body}</failure></testcase></testsuite>`);
    expect(evidence.failures[0]?.message).toBe(`${'y'.repeat(998)}…`);
  });

  it('cuts long failure messages', async () => {
    const long = 'x'.repeat(50_000);
    const evidence = await readJUnitXml(`<testsuite><testcase name="t"><failure>${long}</failure></testcase></testsuite>`);
    expect(evidence.failures[0]?.message).toHaveLength(1000);
    expect(evidence.failures[0]?.message.endsWith('…')).toBe(true);
  });

  it('takes the run time from the root, else from the top-level suites', async () => {
    expect((await readJUnitXml(fixtureBytes('vitest/pass.junit.xml'))).durationMs).toBeCloseTo(8.490364, 5);
    expect((await readJUnitXml(fixtureBytes('node-test/pass.junit.xml'))).durationMs).toBeCloseTo(5.01, 5);
    expect((await readJUnitXml('<testsuites><testsuite name="a"><testcase name="t"/></testsuite></testsuites>')).durationMs).toBeUndefined();
  });

  it('merges several reports', async () => {
    const merged = await readJUnitXml([fixtureBytes('vitest/fail.junit.xml'), fixtureBytes('pytest/skip-todo.junit.xml')]);
    expect(merged.ran).toBe(8);
    expect(merged.skipped).toBe(4);
    expect(merged.failed).toEqual(VITEST_FAILED);
    expect(merged.passed).toBe(false);
  });

  it('skips text around the XML when asked (a report printed among other output)', async () => {
    const output = `> project@1.0.0 test\n> node --test\n\n${fixtureText('node-test/fail.junit.xml')}\nDone in 1.2s.\n`;
    const evidence = await readJUnitXml(output, { skipSurroundingText: true });
    expect(evidence.failed).toEqual(NODE_FAILED);
    await expect(readJUnitXml(output)).rejects.toMatchObject({ kind: 'syntax' });
  });
});

describe('readJUnitXml on bad input', () => {
  it('rejects a file that is not XML, with the line', async () => {
    const error = await readJUnitXml('{"numTotalTests": 3}').catch((e: unknown) => e);
    expect(isEvidenceError(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'syntax', format: 'junit', line: 1 });
  });

  it('rejects truncated XML and names the open element', async () => {
    const text = fixtureText('vitest/fail.junit.xml');
    const cut = text.slice(0, text.indexOf('<failure message="expected { a: 1') + 20);
    const error = (await readJUnitXml(cut).catch((e: unknown) => e)) as EvidenceError;
    expect(error).toBeInstanceOf(EvidenceError);
    expect(error.kind).toBe('truncated');
    expect(error.line).toBeGreaterThan(30);
    expect(error.message).toMatch(/line \d+:\d+/);
    const atTag = (await readJUnitXml(text.slice(0, text.indexOf('</testsuites>'))).catch((e: unknown) => e)) as EvidenceError;
    expect(atTag).toMatchObject({ kind: 'truncated', element: 'testsuites' });
  });

  it('rejects a well-formed document of another kind', async () => {
    await expect(readJUnitXml('<?xml version="1.0"?>\n<html><body/></html>')).rejects.toMatchObject({ kind: 'shape', element: 'html', line: 2 });
  });

  it('rejects an empty source', async () => {
    await expect(readJUnitXml('')).rejects.toMatchObject({ kind: 'empty' });
    await expect(readJUnitXml(' \n ')).rejects.toMatchObject({ kind: 'empty' });
    await expect(readJUnitXml(Readable.from([]))).rejects.toMatchObject({ kind: 'empty' });
  });

  it('rejects undefined entities and broken tags with where they are', async () => {
    await expect(readJUnitXml('<testsuite>\n<testcase name="&nope;"/></testsuite>')).rejects.toMatchObject({ kind: 'syntax', line: 2 });
    const mismatch = (await readJUnitXml('<testsuite><testcase name="a"></testsuite>').catch((e: unknown) => e)) as EvidenceError;
    expect(mismatch).toMatchObject({ kind: 'syntax', line: 1 });
    expect(mismatch.message).toMatch(/<testsuite>|<testcase>/);
  });

  it('rejects a test case nested in a test case instead of losing its failure', async () => {
    const nested = '<testsuite><testcase name="a"><testcase name="b"><failure/></testcase></testcase></testsuite>';
    await expect(readJUnitXml(nested)).rejects.toMatchObject({ kind: 'shape', element: 'testcase' });
  });

  it('fails a test case whose <failure> sits deeper than a direct child', async () => {
    const deep = '<testsuite><testcase classname="c" name="a"><wrapper><failure message="boom"/></wrapper></testcase></testsuite>';
    await expect(readJUnitXml(deep)).resolves.toMatchObject({ passed: false, ran: 1, failed: ['c > a'] });
  });

  it('reads a JUnit file with no test case as zero tests, not as a pass', async () => {
    const evidence = await readJUnitXml('<testsuites tests="0"/>');
    expect(evidence).toMatchObject({ passed: false, ran: 0, total: 0, failed: [] });
  });

  it('reads UTF-16 with a byte-order mark', async () => {
    const text = fixtureText('pytest/fail.junit.xml').replace('encoding="utf-8"', 'encoding="utf-16"');
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect((await readJUnitXml(bytes)).failed).toHaveLength(3);
  });

  itSurvivesFuzzing(CASES, (bytes) => readJUnitXml(bytes), 400);

  it('never counts a test it did not see, on random well-formed reports', async () => {
    const testCase = fc.record({
      name: fc.string({ maxLength: 12 }).map((name) => `t${name}`),
      status: fc.constantFrom('pass', 'failure', 'error', 'skipped', 'todo-failure'),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(testCase, { maxLength: 6 }), { maxLength: 5 }), async (suites) => {
        const xml = `<testsuites>${suites
          .map(
            (cases, s) =>
              `<testsuite name="s${s}">${cases
                .map((c) => `<testcase name="${escapeXml(c.name)}" classname="k">${body(c.status)}</testcase>`)
                .join('')}</testsuite>`,
          )
          .join('')}</testsuites>`;
        const evidence = await readJUnitXml(xml);
        expectInvariants(evidence);
        const all = suites.flat();
        expect(evidence.total).toBe(all.length);
        expect(evidence.skipped).toBe(all.filter((c) => c.status === 'skipped' || c.status === 'todo-failure').length);
        const failing = all.filter((c) => c.status === 'failure' || c.status === 'error');
        expect(evidence.passed).toBe(evidence.ran > 0 && failing.length === 0);
        expect(new Set(evidence.failed)).toEqual(new Set(failing.map((c) => `k > ${cleanName(c.name).trim()}`)));
      }),
      { numRuns: 200 },
    );
  });
});

function body(status: string): string {
  switch (status) {
    case 'failure':
      return '<failure message="m"/>';
    case 'error':
      return '<error>boom</error>';
    case 'skipped':
      return '<skipped/>';
    case 'todo-failure':
      return '<skipped type="todo"/><failure message="known"/>';
    default:
      return '';
  }
}

function cleanName(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/g, '');
}

function escapeXml(text: string): string {
  return cleanName(text).replace(/[<>&"\t\n\r]/g, (c) => `&#${c.charCodeAt(0)};`);
}
