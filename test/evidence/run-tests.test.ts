import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runTests } from '../../src/evidence/run-tests.js';
import { expectInvariants } from './fixtures.js';
import { FAILING_TESTS, PASSING_TESTS, SPAWNING_TEST, isAlive, makeProject, spawnedPids, waitFor } from './sample-projects.js';

const node = process.execPath;
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function project(files: Record<string, string>): string {
  const made = makeProject(files);
  cleanups.push(made.remove);
  return made.dir;
}

const TAP = ['--test', '--test-reporter=tap'];

describe('runTests on real node:test projects', { timeout: 90_000 }, () => {
  it('passes a passing suite, reading TAP from stdout', async () => {
    const cwd = project({ 'math.test.mjs': PASSING_TESTS });
    const result = await runTests({ command: node, args: TAP, cwd, timeoutMs: 60_000 });
    expectInvariants(result);
    expect(result).toMatchObject({ passed: true, ran: 2, failed: [], exitCode: 0 });
    expect(result.reason).toBeUndefined();
    expect(result.command).toBe(`${node} --test --test-reporter=tap`);
    expect(Date.parse(result.finishedAt)).toBeLessThanOrEqual(Date.now());
    expect(result.durationMs).toBeGreaterThan(0);
    expect(result.output).toContain('ok 1 - adds');
    expect(result.treeFingerprint).toMatch(/^(git|fs):[0-9a-f]{64}$/);
  });

  it('fails a failing suite and names the failed test', async () => {
    const cwd = project({ 'math.test.mjs': FAILING_TESTS });
    const result = await runTests({ command: node, args: TAP, cwd, timeoutMs: 60_000, report: { format: 'tap' } });
    expectInvariants(result);
    expect(result).toMatchObject({ passed: false, ran: 2, failed: ['math > rounds down'], exitCode: 1 });
    expect(result.failures[0]?.message).toContain('3.5 !== 3');
  });

  it('reads a JUnit report from a file the run writes', async () => {
    const cwd = project({ 'math.test.mjs': FAILING_TESTS });
    const args = ['--test', '--test-reporter=junit', '--test-reporter-destination=report.xml'];
    const result = await runTests({ command: node, args, cwd, timeoutMs: 60_000, report: { format: 'junit', path: 'report.xml' } });
    expect(result).toMatchObject({ passed: false, ran: 2, failed: ['math > rounds down'], exitCode: 1 });
  });

  it('fails a run that crashes before any test, saying it failed outside any test', async () => {
    const cwd = project({ 'run.mjs': "import './missing-setup.mjs';\n" });
    const result = await runTests({ command: node, args: ['run.mjs'], cwd, timeoutMs: 60_000, report: { format: 'tap' } });
    expectInvariants(result);
    expect(result).toMatchObject({ passed: false, ran: 0, exitCode: 1, reason: 'failed_outside_tests' });
    expect(result.detail).toMatch(/exited with code 1/);
    expect(result.output).toContain('ERR_MODULE_NOT_FOUND');
  });

  it('fails a run whose tests pass but whose command exits non-zero', async () => {
    const cwd = project({ 'run.mjs': "console.log('TAP version 13\\nok 1 - works\\n1..1');\nprocess.exitCode = 3;\n" });
    const result = await runTests({ command: node, args: ['run.mjs'], cwd, timeoutMs: 60_000 });
    expect(result).toMatchObject({ passed: false, ran: 1, failed: [], exitCode: 3, reason: 'failed_outside_tests' });
  });

  it('reports zero tests as ran: 0, not as a pass', async () => {
    const cwd = project({ 'helper.mjs': 'export const x = 1;\n' });
    const result = await runTests({ command: node, args: TAP, cwd, timeoutMs: 60_000 });
    expectInvariants(result);
    expect(result).toMatchObject({ passed: false, ran: 0, exitCode: 0 });
  });

  it('kills the whole process tree on timeout and leaves no orphan', async () => {
    const cwd = project({ 'hang.test.mjs': SPAWNING_TEST });
    // The timeout's timer is fake and fires when the test moves the clock, once the child and the grandchild both
    // run: however slowly the machine starts them, the tree exists when it is killed.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let settled = false;
      const running = runTests({ command: node, args: TAP, cwd, timeoutMs: 8000, killGraceMs: 1000 }).finally(() => {
        settled = true;
      });
      expect(await waitFor(() => spawnedPids(cwd) !== undefined, 60_000)).toBe(true);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(8000);
      const result = await running;
      expect(result).toMatchObject({ passed: false, reason: 'timeout' });
      expect(result.detail).toMatch(/within 8 s/);
      const pids = spawnedPids(cwd)!;
      expect(await waitFor(() => !isAlive(pids.child) && !isAlive(pids.grandchild), 60_000)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('runs a single string through the shell, and an args array without one', async () => {
    const cwd = project({ 'math.test.mjs': PASSING_TESTS });
    const viaShell = await runTests({ command: `"${node}" --test --test-reporter=tap | cat`, cwd, timeoutMs: 60_000 });
    expect(viaShell).toMatchObject({ passed: true, ran: 2 });
    const literal = await runTests({ command: node, args: ['-e', 'console.log("$HOME | cat; echo")'], cwd, timeoutMs: 60_000 });
    expect(literal.output).toBe('$HOME | cat; echo\n');
  });

  it('drops NODE_TEST_CONTEXT so a nested node --test still writes its report', async () => {
    const cwd = project({ 'math.test.mjs': PASSING_TESTS });
    const result = await runTests({ command: node, args: TAP, cwd, timeoutMs: 60_000, env: { NODE_TEST_CONTEXT: 'child-v8', EXTRA: 'x' } });
    expect(result).toMatchObject({ passed: true, ran: 2 });
  });

  it('refuses a report file left from an earlier run', async () => {
    const cwd = project({ 'report.xml': '<testsuite><testcase name="old"/></testsuite>' });
    utimesSync(join(cwd, 'report.xml'), new Date(2020, 0, 1), new Date(2020, 0, 1));
    const result = await runTests({ command: node, args: ['-e', ''], cwd, timeoutMs: 60_000, report: { format: 'junit', path: 'report.xml' } });
    expect(result).toMatchObject({ passed: false, ran: 0, exitCode: 0, reason: 'report_unreadable' });
    expect(result.detail).toMatch(/not rewritten by this run/);
  });

  it('fails with the file and line when the report is not readable', async () => {
    const cwd = project({});
    const script = "require('node:fs').writeFileSync('report.xml', '<testsuites>\\n<testsuite name=\"a\">\\n<testcase name=\"t\">');";
    const result = await runTests({ command: node, args: ['-e', script], cwd, timeoutMs: 60_000, report: { format: 'junit', path: 'report.xml' } });
    expect(result).toMatchObject({ passed: false, ran: 0, exitCode: 0, reason: 'report_unreadable' });
    expect(result.detail).toMatch(/report\.xml, line 3:\d+, <testcase>: the report ends before <testcase> is closed/);
  });

  it('reads a jest-style JSON report printed on stdout after other lines', async () => {
    const cwd = project({});
    const report = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'evidence', 'jest', 'fail.json'), 'utf8');
    writeFileSync(join(cwd, 'report.json'), report);
    const script = "console.log('> project@1.0.0 test'); console.log(require('node:fs').readFileSync('report.json', 'utf8')); process.exitCode = 1;";
    const result = await runTests({ command: node, args: ['-e', script], cwd, timeoutMs: 60_000, report: { format: 'jest-json' } });
    expect(result).toMatchObject({ passed: false, ran: 6, exitCode: 1 });
    expect(result.failed).toHaveLength(3);
  });

  it('keeps only the tail of a large output', async () => {
    const cwd = project({});
    const script = "for (let i = 0; i < 20000; i++) console.log('line ' + i + ' ' + 'x'.repeat(40));";
    const result = await runTests({ command: node, args: ['-e', script], cwd, timeoutMs: 60_000, outputTailBytes: 4096 });
    expect(Buffer.byteLength(result.output)).toBeLessThanOrEqual(4096);
    expect(result.outputTruncated).toBe(true);
    expect(result.output.trimEnd().endsWith(`line 19999 ${'x'.repeat(40)}`)).toBe(true);
    expect(result).toMatchObject({ passed: false, ran: 0, exitCode: 0 });
  });

  it('reads plain TAP on stdout, short or long, and a long one that fails at its end, as readTap does', async () => {
    const cwd = project({});
    const print = (count: number, last: string) =>
      `for (let i = 1; i < ${count}; i++) console.log('ok ' + i + ' - test ' + i); console.log(${JSON.stringify(last)}.replace('N', ${count})); console.log('1..${count}');`;
    const short = await runTests({ command: 'printf', args: ['TAP version 13\n1..1\nok 1 - passes\n'], cwd, timeoutMs: 60_000 });
    expect(short).toMatchObject({ passed: true, ran: 1, failed: [], skipped: 0, total: 1 });
    const long = await runTests({ command: node, args: ['-e', print(6000, 'ok N - test N')], cwd, timeoutMs: 60_000 });
    expect(long).toMatchObject({ passed: true, ran: 6000, failed: [] });
    const failing = await runTests({ command: node, args: ['-e', print(6000, 'not ok N - the last one')], cwd, timeoutMs: 60_000 });
    expect(failing).toMatchObject({ passed: false, ran: 6000, failed: ['the last one'] });
  });

  it('reports a command that cannot start', async () => {
    const cwd = project({});
    const result = await runTests({ command: 'stopwise-no-such-command', args: [], cwd, timeoutMs: 10_000 });
    expect(result).toMatchObject({ passed: false, ran: 0, exitCode: null, reason: 'spawn_failed' });
    expect(result.detail).toMatch(/ENOENT/);
  });

  it('reports a command the shell cannot find or execute, and a missing npm script, as one that could not start', async () => {
    const cwd = project({ 'run.sh': 'echo hi\n', 'package.json': JSON.stringify({ name: 'p', scripts: {} }) });
    for (const report of [undefined, { format: 'exit-code' as const }, { format: 'junit' as const, path: 'junit.xml' }]) {
      const options = { cwd, timeoutMs: 30_000, ...(report === undefined ? {} : { report }) };
      const missing = await runTests({ command: 'stopwise-no-such-command --run', ...options });
      expectInvariants(missing);
      expect(missing).toMatchObject({ passed: false, ran: 0, failed: [], exitCode: 127, reason: 'spawn_failed' });
      expect(missing.detail).toMatch(/^exit code 127: the shell found no such command: .*stopwise-no-such-command.*not found$/);
      const notExecutable = await runTests({ command: './run.sh', ...options });
      expect(notExecutable).toMatchObject({ passed: false, ran: 0, exitCode: 126, reason: 'spawn_failed' });
      expect(notExecutable.detail).toMatch(/^exit code 126: the shell could not execute it: .*Permission denied$/);
      const script = await runTests({ command: 'npm', args: ['test', '--silent'], ...options });
      expect(script).toMatchObject({ passed: false, ran: 0, exitCode: 1, reason: 'spawn_failed', detail: 'npm has no "test" script' });
    }
  });

  it('keeps exit code 127 a test failure when the report or the summary shows tests that ran', async () => {
    const cwd = project({});
    const tap = "printf 'TAP version 13\\n1..1\\nnot ok 1 - calls the helper\\n'; exit 127";
    const result = await runTests({ command: tap, cwd, timeoutMs: 30_000, report: { format: 'tap' } });
    expect(result).toMatchObject({ passed: false, ran: 1, failed: ['calls the helper'], exitCode: 127 });
    expect(result.reason).toBeUndefined();
    const summary = "printf 'Tests:       1 failed, 1 passed, 2 total\\n'; exit 127";
    const counted = await runTests({ command: summary, cwd, timeoutMs: 30_000, report: { format: 'exit-code' } });
    expect(counted).toMatchObject({ passed: false, ran: 2, exitCode: 127 });
    expect(counted.reason).toBeUndefined();
  });

  it('reads the exit code alone when asked: one check named after the command, passing only on exit 0', async () => {
    const cwd = project({ 'math.test.mjs': PASSING_TESTS });
    const pass = await runTests({ command: 'echo everything is fine', cwd, timeoutMs: 30_000, report: { format: 'exit-code' } });
    expectInvariants(pass);
    expect(pass).toMatchObject({ passed: true, ran: 1, total: 1, failed: [], failures: [], exitCode: 0 });
    expect(pass.reason).toBeUndefined();
    expect(pass.treeFingerprint).toMatch(/^(git|fs):/);
    const fail = await runTests({ command: "echo 'AssertionError: 3 !== 4' >&2; exit 3", cwd, timeoutMs: 30_000, report: { format: 'exit-code' } });
    expectInvariants(fail);
    expect(fail).toMatchObject({
      passed: false,
      ran: 1,
      failed: ["check:echo 'AssertionError: 3 !== 4' >&2; exit 3"],
      failures: [{ name: "check:echo 'AssertionError: 3 !== 4' >&2; exit 3", message: 'exit code 3: AssertionError: 3 !== 4' }],
      exitCode: 3,
    });
    expect(fail.reason).toBeUndefined();
    const tap = await runTests({ command: node, args: TAP, cwd, timeoutMs: 60_000, report: { format: 'exit-code' } });
    expect(tap).toMatchObject({ passed: true, ran: 2, failed: [] });
  });

  it('reads the runner\'s closing summary in exit-code mode: no test at all is ran: 0, never a pass', async () => {
    const cwd = project({ 'README.md': 'no tests here\n' });
    const spec = ['--test', '--test-reporter=spec'];
    const none = await runTests({ command: node, args: spec, cwd, timeoutMs: 60_000, report: { format: 'exit-code' } });
    expectInvariants(none);
    expect(none).toMatchObject({ passed: false, ran: 0, failed: [], exitCode: 0 });
  });

  it('never passes a run whose summary says no test ran after the output lost its beginning (a long go test listing)', async () => {
    const cwd = project({ 'README.md': 'no tests here\n' });
    const listing = `${node} -e "for (let i = 0; i < 400; i++) console.log('?   \\texample.com/monorepo/internal/service' + i + '/handlers\\t[no test files]')"`;
    const none = await runTests({ command: listing, cwd, timeoutMs: 60_000, report: { format: 'exit-code' } });
    expectInvariants(none);
    expect(none).toMatchObject({ passed: false, ran: 0, failed: [], exitCode: 0, reason: 'incomplete' });
    expect(none.detail).toMatch(/lost its beginning/);
  });

  it('counts the tests of the closing summary in exit-code mode, and still names the command when they fail', async () => {
    const cwd = project({ 'math.test.mjs': FAILING_TESTS, 'more.test.mjs': PASSING_TESTS });
    const spec = ['--test', '--test-reporter=spec'];
    const red = await runTests({ command: node, args: spec, cwd, timeoutMs: 60_000, report: { format: 'exit-code' } });
    expectInvariants(red);
    const name = `check:${node} --test --test-reporter=spec`;
    expect(red).toMatchObject({ passed: false, ran: 4, skipped: 0, failed: [name], exitCode: 1 });
    expect(red.failures[0]?.message).toMatch(/^exit code 1: .*; the node-test summary says 1 of 4 tests failed$/);
    const green = project({ 'math.test.mjs': PASSING_TESTS });
    const pass = await runTests({ command: node, args: spec, cwd: green, timeoutMs: 60_000, report: { format: 'exit-code' } });
    expect(pass).toMatchObject({ passed: true, ran: 2, failed: [], exitCode: 0 });
  });

  it('does not pass a run whose summary says all passed while it exits non-zero, nor one that exits 0 with failures in its summary', async () => {
    const cwd = project({ 'math.test.mjs': PASSING_TESTS });
    const exits = await runTests({ command: `${node} --test --test-reporter=spec; exit 3`, cwd, timeoutMs: 60_000, report: { format: 'exit-code' } });
    expectInvariants(exits);
    expect(exits).toMatchObject({ passed: false, ran: 2, exitCode: 3 });
    expect(exits.failures[0]?.message).toMatch(/^exit code 3: .*, although the node-test summary says all 2 tests passed$/);
    const hides = await runTests({ command: "printf 'Tests:       1 failed, 1 passed, 2 total\\n'", cwd, timeoutMs: 60_000, report: { format: 'exit-code' } });
    expect(hides).toMatchObject({ passed: false, ran: 2, exitCode: 0 });
    expect(hides.failures[0]?.message).toBe('exit code 0, but the jest summary says 1 of 2 tests failed');
  });

  it('keeps an output it cannot read as one check in exit-code mode', async () => {
    const cwd = project({});
    const odd = await runTests({ command: "printf 'Tests:       3 passed, 1 total\\n'", cwd, timeoutMs: 60_000, report: { format: 'exit-code' } });
    expect(odd).toMatchObject({ passed: true, ran: 1, failed: [] });
  });

  it('keeps the default without a report: exit 0 with no TAP is ran: 0, not a pass', async () => {
    const cwd = project({});
    const result = await runTests({ command: 'echo no tests here', cwd, timeoutMs: 30_000 });
    expect(result).toMatchObject({ passed: false, ran: 0, exitCode: 0 });
  });

  it('still says timeout and spawn_failed in exit-code mode', async () => {
    const cwd = project({});
    const slow = await runTests({ command: 'sleep 30', cwd, timeoutMs: 300, killGraceMs: 100, report: { format: 'exit-code' } });
    expect(slow).toMatchObject({ passed: false, reason: 'timeout' });
    const missing = await runTests({ command: 'stopwise-no-such-command', args: [], cwd, timeoutMs: 10_000, report: { format: 'exit-code' } });
    expect(missing).toMatchObject({ passed: false, ran: 0, reason: 'spawn_failed' });
  });

  it('rejects misuse with a TypeError naming the option', async () => {
    const cwd = project({});
    await expect(runTests({ command: '', cwd, timeoutMs: 1000 })).rejects.toThrow(/command/);
    await expect(runTests({ command: node, cwd, timeoutMs: 0 })).rejects.toThrow(/timeoutMs/);
    await expect(runTests({ command: node, cwd, timeoutMs: 1000, report: { format: 'xml' as 'junit' } })).rejects.toThrow(/report\.format/);
    await expect(runTests({ command: node, cwd, timeoutMs: 1000, report: { format: 'exit-code', path: 'r.xml' as unknown as undefined } })).rejects.toThrow(/report\.path has no use/);
  });
});
