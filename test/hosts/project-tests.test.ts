import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectTestRunner, testRunEvidence } from '../../src/hosts/project-tests.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A git checkout whose test command counts its runs in a file outside the tree. */
function checkout(tap: string): { dir: string; runs: () => number } {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-project-tests-'));
  const outside = mkdtempSync(join(tmpdir(), 'stopwise-project-tests-count-'));
  folders.push(dir, outside);
  const counter = join(outside, 'runs');
  writeFileSync(counter, '');
  writeFileSync(join(dir, 'tests.sh'), `echo run >> '${counter}'\nprintf '${tap}'\n`);
  writeFileSync(join(dir, 'app.js'), 'export const answer = 42;\n');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', ...args], { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'start');
  return { dir, runs: () => readFileSync(counter, 'utf8').split('\n').filter(Boolean).length };
}

const tests = { command: 'sh tests.sh', timeoutMs: 20_000 };
const PASS = 'TAP version 13\\n1..1\\nok 1 - answers\\n';
const FAIL = 'TAP version 13\\n1..1\\nnot ok 1 - answers\\n';

describe('projectTestRunner', () => {
  it('runs the tests and records the tree they ran on', async () => {
    const { dir } = checkout(PASS);
    expect(await projectTestRunner.run(tests, { cwd: dir, env: {} })).toMatchObject({
      outcome: 'ran',
      evidence: { passed: true, ran: 1, failed: [], command: 'sh tests.sh', treeFingerprint: expect.any(String) },
    });
  });

  it('reuses a pass while the tree is unchanged, and runs again once it changed', async () => {
    const { dir, runs } = checkout(PASS);
    const first = await projectTestRunner.run(tests, { cwd: dir, env: {} });
    if (first.outcome !== 'ran') throw new Error(`unexpected ${first.outcome}`);
    expect(await projectTestRunner.run(tests, { cwd: dir, env: {}, previous: first.evidence })).toEqual({ outcome: 'reused', evidence: first.evidence });
    expect(runs()).toBe(1);
    appendFileSync(join(dir, 'app.js'), 'export const other = 1;\n');
    expect((await projectTestRunner.run(tests, { cwd: dir, env: {}, previous: first.evidence })).outcome).toBe('ran');
    expect(runs()).toBe(2);
  });

  it('never reuses a failure', async () => {
    const { dir, runs } = checkout(FAIL);
    const first = await projectTestRunner.run(tests, { cwd: dir, env: {} });
    if (first.outcome !== 'ran') throw new Error(`unexpected ${first.outcome}`);
    expect(first.evidence).toMatchObject({ passed: false, failed: ['answers'] });
    await projectTestRunner.run(tests, { cwd: dir, env: {}, previous: first.evidence });
    expect(runs()).toBe(2);
  });

  it('makes the folder of the report file, which node --test does not make for a reporter destination', async () => {
    const { dir } = checkout(PASS);
    writeFileSync(join(dir, 'answer.test.mjs'), "import test from 'node:test';\ntest('answers', () => {});\n");
    const command = 'node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=tap --test-reporter-destination=reports/new/run.tap';
    const result = await projectTestRunner.run({ command, report: { format: 'tap', path: 'reports/new/run.tap' }, timeoutMs: 30_000 }, { cwd: dir, env: {} });
    expect(result).toMatchObject({ outcome: 'ran', evidence: { passed: true, ran: 1, failed: [] } });
  });

  it('says timeout when the command outlives its time', async () => {
    const { dir } = checkout(PASS);
    expect(await projectTestRunner.run({ command: 'sleep 30', timeoutMs: 300 }, { cwd: dir, env: {} })).toEqual({ outcome: 'timeout', timeoutMs: 300 });
  });

  it('says not_started, with the command and the error, when the command cannot start: a broken configuration, not evidence', async () => {
    const { dir } = checkout(PASS);
    expect(await projectTestRunner.run({ command: 'stopwise-no-such-runner', args: ['--run'], timeoutMs: 20_000 }, { cwd: dir, env: {} })).toEqual({
      outcome: 'not_started',
      command: 'stopwise-no-such-runner --run',
      message: 'spawn stopwise-no-such-runner ENOENT',
    });
    expect(await projectTestRunner.run({ command: 'stopwise-no-such-runner', timeoutMs: 20_000 }, { cwd: dir, env: {} })).toMatchObject({
      outcome: 'not_started',
      message: expect.stringMatching(/^exit code 127: the shell found no such command/),
    });
  });

  it('passes on why a run failed outside any test', async () => {
    const { dir } = checkout(PASS);
    expect(await projectTestRunner.run({ command: 'echo broken >&2; exit 3', timeoutMs: 20_000 }, { cwd: dir, env: {} })).toMatchObject({
      outcome: 'ran',
      evidence: { passed: false },
      reason: expect.stringMatching(/3/),
    });
  });
});

describe('testRunEvidence', () => {
  it('keeps the evidence of a run that ended normally, or that names its failures', () => {
    const evidence = { passed: false, failed: ['a'], ran: 2 };
    expect(testRunEvidence({ outcome: 'ran', evidence })).toBe(evidence);
    expect(testRunEvidence({ outcome: 'ran', evidence, reason: 'exit 1' })).toBe(evidence);
    const named = { passed: false, failed: [], ran: 0, failures: [{ name: 'suite', message: 'crashed' }] };
    expect(testRunEvidence({ outcome: 'reused', evidence: named, reason: 'crash' })).toBe(named);
  });

  it('names the test command as the failure of a run that failed outside any test', () => {
    const evidence = { passed: false, failed: [], ran: 0 };
    expect(testRunEvidence({ outcome: 'ran', evidence, reason: 'exit code 3: broken' })).toEqual({ ...evidence, failures: [{ name: 'test command', message: 'exit code 3: broken' }] });
  });
});
