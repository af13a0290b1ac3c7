import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evidenceTestRunner } from '../../src/hosts/evidence-test-runner.js';

/** A git checkout whose test command counts its runs in a file outside the tree. */
function checkout(tap: string): { dir: string; runs: () => number } {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-fresh-'));
  const counter = join(mkdtempSync(join(tmpdir(), 'stopwise-count-')), 'runs');
  writeFileSync(counter, '');
  writeFileSync(join(dir, 'tests.sh'), `echo run >> '${counter}'\nprintf '${tap}'\n`);
  writeFileSync(join(dir, 'app.js'), 'export const answer = 42;\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('-c', 'user.email=t@example.invalid', '-c', 'user.name=t', 'add', '.');
  git('-c', 'user.email=t@example.invalid', '-c', 'user.name=t', 'commit', '-qm', 'start');
  return { dir, runs: () => readFileSync(counter, 'utf8').split('\n').filter(Boolean).length };
}

const tests = { command: 'sh tests.sh', timeoutMs: 20_000 };
const PASS = 'TAP version 13\\n1..1\\nok 1 - answers\\n';
const FAIL = 'TAP version 13\\n1..1\\nnot ok 1 - answers\\n';

describe('evidenceTestRunner', () => {
  it('runs the tests with runTests and records the tree they ran on', async () => {
    const { dir } = checkout(PASS);
    const result = await evidenceTestRunner.run(tests, { cwd: dir, env: {} });
    expect(result).toMatchObject({ outcome: 'ran', evidence: { passed: true, ran: 1, failed: [], treeFingerprint: expect.any(String) } });
  });

  it('reuses a pass while the tree is unchanged, and runs again once it changed', async () => {
    const { dir, runs } = checkout(PASS);
    const first = await evidenceTestRunner.run(tests, { cwd: dir, env: {} });
    if (first.outcome === 'timeout' || first.outcome === 'not_started') throw new Error(`unexpected ${first.outcome}`);
    const second = await evidenceTestRunner.run(tests, { cwd: dir, env: {}, previous: first.evidence });
    expect(second.outcome).toBe('reused');
    expect(runs()).toBe(1);
    appendFileSync(join(dir, 'app.js'), 'export const other = 1;\n');
    const third = await evidenceTestRunner.run(tests, { cwd: dir, env: {}, previous: first.evidence });
    expect(third.outcome).toBe('ran');
    expect(runs()).toBe(2);
  });

  it('never reuses a failure', async () => {
    const { dir, runs } = checkout(FAIL);
    const first = await evidenceTestRunner.run(tests, { cwd: dir, env: {} });
    if (first.outcome === 'timeout' || first.outcome === 'not_started') throw new Error(`unexpected ${first.outcome}`);
    expect(first.evidence.passed).toBe(false);
    await evidenceTestRunner.run(tests, { cwd: dir, env: {}, previous: first.evidence });
    expect(runs()).toBe(2);
  });

  it('makes the folder of the report file, which node --test does not make for a reporter destination', async () => {
    const { dir } = checkout(PASS);
    writeFileSync(join(dir, 'answer.test.mjs'), "import test from 'node:test';\ntest('answers', () => {});\n");
    const command = 'node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=tap --test-reporter-destination=reports/new/run.tap';
    const result = await evidenceTestRunner.run({ command, report: { format: 'tap', path: 'reports/new/run.tap' }, timeoutMs: 30_000 }, { cwd: dir, env: {} });
    expect(result).toMatchObject({ outcome: 'ran', evidence: { passed: true, ran: 1, failed: [] } });
  });

  it('says timeout when the command outlives its time', async () => {
    const { dir } = checkout(PASS);
    const result = await evidenceTestRunner.run({ command: 'sleep 30', timeoutMs: 300 }, { cwd: dir, env: {} });
    expect(result).toEqual({ outcome: 'timeout', timeoutMs: 300 });
  });

  it('says not_started, with the command and the error, when the command cannot start', async () => {
    const { dir } = checkout(PASS);
    expect(await evidenceTestRunner.run({ command: 'stopwise-no-such-runner', args: [], timeoutMs: 20_000 }, { cwd: dir, env: {} })).toEqual({
      outcome: 'not_started',
      command: 'stopwise-no-such-runner',
      message: 'spawn stopwise-no-such-runner ENOENT',
    });
    expect(await evidenceTestRunner.run({ command: 'stopwise-no-such-runner', timeoutMs: 20_000 }, { cwd: dir, env: {} })).toMatchObject({
      outcome: 'not_started',
      message: expect.stringMatching(/^exit code 127: the shell found no such command/),
    });
  });

  it('passes the reason of a run that failed outside any test', async () => {
    const { dir } = checkout(PASS);
    const result = await evidenceTestRunner.run({ command: 'echo broken >&2; exit 3', timeoutMs: 20_000 }, { cwd: dir, env: {} });
    expect(result).toMatchObject({ outcome: 'ran', evidence: { passed: false }, reason: expect.stringMatching(/3/) });
  });
});
