import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandTestRunner } from '../../src/hosts/internal-test-command.js';
import { isRunning } from './is-running.js';

const cwd = mkdtempSync(join(tmpdir(), 'stopwise-tests-'));
const env = { ...process.env };
const run = (command: string, args?: string[], timeoutMs = 10_000) =>
  commandTestRunner.run({ command, ...(args === undefined ? {} : { args }), timeoutMs }, { cwd, env });

function script(name: string, text: string): string {
  writeFileSync(join(cwd, name), text);
  return name;
}

describe('the hook test command runner', () => {
  it('reads TAP on stdout: passes, failures by name, skips and todos', async () => {
    const tap = script('tap.txt', 'TAP version 13\n1..4\nok 1 - adds\nnot ok 2 - subtracts\nok 3 - divides # SKIP no zero yet\nnot ok 4 - rounds # TODO later\n');
    const result = await run(`cat ${tap}; exit 1`);
    expect(result).toMatchObject({ outcome: 'ran', evidence: { passed: false, failed: ['subtracts'], ran: 2, skipped: 2 } });
    expect(result.outcome === 'ran' && result.reason).toBeUndefined();
  });

  it('passes with TAP tests and exit code 0, without a shell when args are given', async () => {
    const result = await run('node', ['-e', "console.log('TAP version 13\\n1..2\\nok 1 - a\\nok 2 - b')"]);
    expect(result).toMatchObject({ outcome: 'ran', evidence: { passed: true, failed: [], ran: 2 } });
  });

  it('reports no tests when the command exits 0 without TAP', async () => {
    expect(await run('echo all good')).toMatchObject({ outcome: 'ran', evidence: { passed: false, ran: 0 } });
  });

  it('fails with a reason when the command exits non-zero outside any test', async () => {
    const result = await run("echo 'SyntaxError: unexpected token' >&2; exit 2");
    expect(result).toMatchObject({ outcome: 'ran', evidence: { passed: false, failed: [] } });
    expect(result.outcome === 'ran' && result.reason).toMatch(/exited with code 2 outside any failed test \(last output: SyntaxError: unexpected token\)/);
    const passingTapBadExit = await run("printf 'ok 1 - a\\n'; exit 3");
    expect(passingTapBadExit).toMatchObject({ evidence: { passed: false, ran: 1 }, reason: expect.stringContaining('code 3') });
  });

  it('fails on Bail out! and on a plan that does not match', async () => {
    expect(await run("printf '1..3\\nok 1 - a\\nBail out! database down\\n'")).toMatchObject({ evidence: { passed: false }, reason: expect.stringContaining('bailed out: database down') });
    expect(await run("printf '1..3\\nok 1 - a\\n'")).toMatchObject({ evidence: { passed: false }, reason: expect.stringContaining('plan announced 3 tests, 1 reported') });
  });

  it('says when the command cannot start', async () => {
    const result = await run('./no-such-binary', []);
    expect(result).toMatchObject({ outcome: 'ran', evidence: { passed: false, ran: 0 } });
    expect(result.outcome === 'ran' && result.reason).toMatch(/could not start/);
  });

  it('drops NODE_TEST_CONTEXT from the child environment', async () => {
    const result = await commandTestRunner.run(
      { command: 'node', args: ['-e', "console.log(process.env.NODE_TEST_CONTEXT ? 'not ok 1 - leaked' : 'ok 1 - clean')"], timeoutMs: 10_000 },
      { cwd, env: { ...process.env, NODE_TEST_CONTEXT: 'child-v8' } },
    );
    expect(result).toMatchObject({ evidence: { passed: true, ran: 1 } });
  });

  it('kills the whole process tree at the timeout', async () => {
    const pidFile = join(cwd, 'grandchild.pid');
    const result = await run(`sleep 30 & echo $! > ${pidFile}; wait`, undefined, 500);
    expect(result).toEqual({ outcome: 'timeout', timeoutMs: 500 });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isRunning(pid)).toBe(false);
  });
});
