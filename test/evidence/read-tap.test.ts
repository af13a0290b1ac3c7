import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTap } from '../../src/evidence/read-tap.js';
import {
  expectCutMessage,
  expectInvariants,
  expectReadOrEvidenceError,
  fixtureText,
  itReadsEverySource,
  itReadsFixtures,
  itSurvivesFuzzing,
  LONG_MESSAGE_TESTS,
  MANY_SCRIPTS_MESSAGE,
  type FixtureCase,
} from './fixtures.js';

const CASES: readonly FixtureCase[] = [
  // node counts the parent of two subtests as a test too: 9 - 1
  { file: 'node-test/pass.tap', summary: '`tests 9` `suites 3` `pass 9` `fail 0`', ran: 8, skipped: 0, failed: [], passed: true },
  {
    file: 'node-test/fail.tap',
    summary: '`tests 6` `suites 3` `pass 3` `fail 3`',
    ran: 6,
    skipped: 0,
    failed: ['math > division > rounds down', 'parser > throws a TypeError on <bad> & input', 'parser > compares objects'],
    passed: false,
  },
  // the skipped describe is a suite (type: 'suite'), not a test; the failing todo does not fail the run
  { file: 'node-test/skip-todo.tap', summary: '`tests 6` `suites 2` `pass 2` `fail 0` `cancelled 0` `skipped 2` `todo 2`', ran: 2, skipped: 4, failed: [], passed: true },
  {
    file: 'node-test/errored.tap',
    summary: '`tests 2` `suites 0` `pass 1` `fail 1`',
    ran: 2,
    skipped: 0,
    failed: ['/home/dev/projects/node-test-sample/s/errored/broken.test.mjs'],
    passed: false,
  },
  { file: 'node-test/zero.tap', summary: '`tests 0` `suites 0` `pass 0` `fail 0`', ran: 0, skipped: 0, failed: [], passed: false },
  { file: 'node-test/long-messages.tap', summary: '`tests 7` `suites 0` `pass 1` `fail 6`', ran: 7, skipped: 0, failed: [...LONG_MESSAGE_TESTS], passed: false },
  // leaves: adds two numbers, rounds down (fails), divides evenly, another passing test; a skip and a failing todo
  { file: 'tap/perl-subtests.tap', summary: '`Tests: 4 Failed: 1`', ran: 4, skipped: 2, failed: ['math > division > rounds down'], passed: false },
  {
    file: 'tap/perl-bail.tap',
    summary: '`Tests: 2 Failed: 1`',
    ran: 2,
    skipped: 0,
    failed: ['finds the fixture file'],
    passed: false,
    reason: 'bailed_out',
  },
  { file: 'tap/perl-died.tap', summary: '`Tests: 2 Failed: 0`', ran: 2, skipped: 0, failed: [], passed: false, reason: 'incomplete' },
  // 4 pass + 1 fail ran; 1 skip + 2 todo
  { file: 'tap/node-tap.tap', summary: '`# { total: 8, pass: 4, fail: 1, todo: 2, skip: 1 }`', ran: 5, skipped: 3, failed: ['math > division > rounds down'], passed: false },
];

describe('readTap on reports written by real producers', () => {
  itReadsFixtures(CASES, (text) => readTap(text));
  itReadsEverySource(CASES, (source) => readTap(source));
  itSurvivesFuzzing(CASES, (bytes) => readTap(bytes));

  it('says why a run did not finish', async () => {
    const bail = await readTap(fixtureText('tap/perl-bail.tap'));
    expect(bail.detail).toBe('Bail out! at line 4: cannot continue without the fixture file');
    const died = await readTap(fixtureText('tap/perl-died.tap'));
    expect(died.detail).toBe('the plan announced 5 tests but 2 were seen (the run did not finish)');
    const cut = fixtureText('node-test/fail.tap').split('\n').slice(0, 40).join('\n');
    expect(await readTap(cut)).toMatchObject({ passed: false, reason: 'incomplete' });
  });

  it('keeps the failure message from the YAML block', async () => {
    const node = await readTap(fixtureText('node-test/fail.tap'));
    expect(node.failures[1]).toEqual({ name: 'parser > throws a TypeError on <bad> & input', message: "Cannot read properties of undefined (reading 'length')" });
    const tap14 = await readTap(fixtureText('tap/node-tap.tap'));
    expect(tap14.failures[0]?.message).toContain('-3\n+3.5');
  });

  it('keeps long, multi-line and non-ASCII messages that node:test writes with util.inspect', async () => {
    const evidence = await readTap(fixtureText('node-test/long-messages.tap'));
    const messages = evidence.failures.map((failure) => failure.message);
    // node cuts the 100,000 characters to 10,000 and appends "... 90000 more characters", which is not YAML
    expect(messages[0]).toBe(`${'L'.repeat(999)}…`);
    expect(messages[1]).toBe(MANY_SCRIPTS_MESSAGE);
    // 998 x then an emoji: the cut at 999 would keep half of it
    expect(messages[2]).toBe(`${'x'.repeat(998)}…`);
    expectCutMessage(messages[2], 'x');
    // both quote marks: node quotes it with backticks, which is not YAML either
    expect(messages[3]).toBe('it\'s "quoted" and \\ escaped');
    expectCutMessage(messages[4], 'line 0 éééé');
    expect(messages[4]).toContain('\nline 1 ');
    // the message parses; `expected:` and `actual:` were cut by node and broke the block
    expectCutMessage(messages[5], "Expected values to be strictly equal:\n+ actual - expected\n\n+ 'AAAA");
  });

  it('reads the value of a YAML line that node cut or quoted with backticks, with its escapes', async () => {
    const tap = [
      'TAP version 13',
      'not ok 1 - cut',
      '  ---',
      "  error: 'a\\nb\\x41\\u00e9 \\'q\\' \\\\ end'... 12 more characters",
      '  ...',
      'not ok 2 - backticks',
      '  ---',
      '  error: `it\'s "both"`',
      '  ...',
      'not ok 3 - inside a block scalar',
      '  ---',
      '  error: |-',
      "    actual: 'kept as written'... 3 more characters",
      '  ...',
      '1..3',
    ];
    const evidence = await readTap(tap.join('\n'));
    expect(evidence.failures.map((failure) => failure.message)).toEqual([
      "a\nbAé 'q' \\ end…",
      'it\'s "both"',
      "actual: 'kept as written'... 3 more characters",
    ]);
  });

  it('reads the duration that node:test and node-tap print', async () => {
    expect((await readTap(fixtureText('node-test/pass.tap'))).durationMs).toBeCloseTo(273.893572, 5);
    expect((await readTap(fixtureText('tap/node-tap.tap'))).durationMs).toBeCloseTo(47.525, 5);
  });

  it('ignores lines that are not TAP', async () => {
    const noisy = `> npm test\n\nwarning: something\n${fixtureText('node-test/fail.tap')}\nnpm ERR! Test failed.\n`;
    expect((await readTap(noisy)).failed).toHaveLength(3);
  });

  it('counts a failing suite whose tests all passed as a failure of the suite', async () => {
    const tap = ['TAP version 13', '# Subtest: db', '    ok 1 - connects', '    1..1', 'not ok 1 - db', '  ---', "  error: 'after hook failed'", '  ...', '1..1'];
    const evidence = await readTap(tap.join('\n'));
    expect(evidence).toMatchObject({ passed: false, ran: 2, failed: ['db'] });
    expect(evidence.failures[0]?.message).toBe('after hook failed');
  });

  it('rejects input with no TAP at all', async () => {
    await expect(readTap('')).rejects.toMatchObject({ kind: 'empty', format: 'tap' });
    await expect(readTap('Compiling...\nerror TS2304: Cannot find name "x".\n')).rejects.toMatchObject({ kind: 'empty', line: 2 });
  });

  it('never crashes and keeps the invariants on random TAP-like lines', async () => {
    const line = fc.oneof(
      fc.constantFrom('TAP version 14', '1..3', '1..0', 'Bail out!', '# Subtest: s', '  ---', '  ...', 'pragma +strict'),
      fc.tuple(fc.constantFrom('ok', 'not ok'), fc.nat(5), fc.string({ maxLength: 8 }), fc.constantFrom('', ' # SKIP', ' # TODO x')).map(
        ([status, id, name, directive]) => `${status} ${id} - ${name}${directive}`,
      ),
      fc.string({ maxLength: 20 }),
    );
    const indented = fc.tuple(fc.constantFrom('', '    ', '        '), line).map(([indent, text]) => indent + text);
    await fc.assert(
      fc.asyncProperty(fc.array(indented, { maxLength: 25 }), async (lines) => {
        await expectReadOrEvidenceError(() => readTap(lines.join('\n')));
      }),
      { numRuns: 400 },
    );
  });

  it('keeps the invariants on a flat TAP stream of known results', async () => {
    const point = fc.constantFrom('ok', 'not ok', 'ok # SKIP', 'not ok # TODO');
    await fc.assert(
      fc.asyncProperty(fc.array(point, { maxLength: 20 }), async (points) => {
        const lines = ['TAP version 13', ...points.map((p, i) => p.replace(/^(ok|not ok)/, `$1 ${i + 1} - t${i}`)), `1..${points.length}`];
        const evidence = await readTap(lines.join('\n'));
        expectInvariants(evidence);
        expect(evidence.ran).toBe(points.filter((p) => p === 'ok' || p === 'not ok').length);
        expect(evidence.skipped).toBe(points.length - evidence.ran);
        expect(evidence.failed.length).toBe(points.filter((p) => p === 'not ok').length);
      }),
      { numRuns: 200 },
    );
  });
});
