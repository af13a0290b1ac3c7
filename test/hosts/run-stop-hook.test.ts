import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestEvidence } from '../../src/core/test-evidence.js';
import { EvaluationError } from '../../src/judge/evaluation-error.js';
import { createScriptedClient } from '../../src/testing/scripted-client.js';
import type { HookTestResult, HookTestRunner } from '../../src/hosts/hook-test-runner.js';
import { runStopHook } from '../../src/hosts/run-stop-hook.js';

function project(config: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-run-'));
  writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'unused' }, ...config }));
  return dir;
}

/** A runner that answers from a list and records the previous evidence it was given. */
function scriptedRunner(results: HookTestResult[]): HookTestRunner & { previous: (TestEvidence | undefined)[] } {
  const previous: (TestEvidence | undefined)[] = [];
  return {
    previous,
    async run(_tests, options) {
      previous.push(options.previous);
      const next = results.shift();
      if (next === undefined) throw new Error('no more scripted test results');
      return next;
    },
  };
}

const stdin = (dir: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'done', ...extra });

describe('runStopHook', () => {
  it('runs with the given test runner and decision model, and passes the last evidence on', async () => {
    const dir = project({ task: 'Ship the login page', acceptance: ['errors are shown'], judge: { client: 'system-one' } });
    const red: TestEvidence = { passed: false, failed: ['login > shows errors'], ran: 4 };
    const green: TestEvidence = { passed: true, failed: [], ran: 4 };
    const runner = scriptedRunner([{ outcome: 'ran', evidence: red }, { outcome: 'reused', evidence: green }, { outcome: 'ran', evidence: green }]);
    const client = createScriptedClient([
      { acceptanceCovered: 0.2, noOpenQuestions: 0.9 },
      { acceptanceCovered: 0.95, noOpenQuestions: 0.9 },
    ]);
    const options = { env: {}, testRunner: runner, client };
    const first = await runStopHook('claude-code', stdin(dir), options);
    expect(JSON.parse(first.stdout)).toMatchObject({ decision: 'block', reason: expect.stringContaining('login > shows errors') });
    expect(client.calls[0]?.state).toMatchObject({
      task: 'Ship the login page',
      output: 'done',
      acceptance: ['errors are shown'],
      tests: { passed: false, ran: 4, failed: ['login > shows errors'] },
    });
    const reentry = await runStopHook('claude-code', stdin(dir), options);
    expect(reentry).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(client.calls).toHaveLength(1);
    const fresh = await runStopHook('claude-code', stdin(dir), options);
    expect(fresh).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(client.calls).toHaveLength(2);
    expect(runner.previous).toEqual([undefined, expect.objectContaining(red), expect.objectContaining(green)]);
  });

  it('does not ask the model when the evidence decides, and lets a model error through as a message', async () => {
    const dir = project({ task: 't', judge: { client: 'system-one' }, maxConsecutiveBlocks: 5 });
    const client = createScriptedClient([new EvaluationError('rate_limited', 'HTTP 429 from System One', { status: 429 })]);
    const options = {
      env: {},
      testRunner: scriptedRunner([
        { outcome: 'ran', evidence: { passed: false, failed: [], ran: 0 } },
        { outcome: 'ran', evidence: { passed: true, failed: [], ran: 3 } },
      ]),
      client,
    };
    const none = await runStopHook('codex', stdin(dir), options);
    expect(JSON.parse(none.stdout).reason).toMatch(/^No tests ran/);
    expect(client.calls).toHaveLength(0);
    const green = await runStopHook('codex', stdin(dir), options);
    expect(JSON.parse(green.stdout)).toEqual({ systemMessage: expect.stringContaining('HTTP 429 from System One') });
    expect(client.calls).toHaveLength(1);
  });

  it('never asks a model when none is configured or given', async () => {
    const dir = project({});
    const run = await runStopHook('claude-code', stdin(dir), {
      env: { SYSTEM_ONE_API_KEY: 'k', SYSTEM_ONE_BASE_URL: 'http://127.0.0.1:9/v1', SYSTEM_ONE_MODEL: 'm' },
      testRunner: scriptedRunner([{ outcome: 'ran', evidence: { passed: true, failed: [], ran: 2 } }]),
    });
    expect(run).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('does not save its state when another invocation took its lock over while it ran', async () => {
    const dir = project({});
    const stateDir = join(dir, '.stopwise/state');
    const takeover: HookTestRunner = {
      async run() {
        const [lock] = readdirSync(stateDir).filter((name) => name.endsWith('.json.lock'));
        writeFileSync(join(stateDir, lock as string), JSON.stringify({ pid: process.pid, host: hostname(), token: 'another-invocation' }));
        return { outcome: 'ran', evidence: { passed: false, failed: ['a > b'], ran: 1 } };
      },
    };
    const run = await runStopHook('claude-code', stdin(dir), { env: {}, testRunner: takeover });
    expect(JSON.parse(run.stdout)).toMatchObject({ decision: 'block' });
    expect(run.stderr).toMatch(/took over the lock on .* was not saved/);
    expect(readdirSync(stateDir).filter((name) => name.startsWith('session-') && name.endsWith('.json'))).toEqual([]);
  });

  it('turns an unexpected failure into an allowed stop with a message, never a crash', async () => {
    const dir = project({});
    const broken: HookTestRunner = {
      run() {
        throw new Error('disk on fire');
      },
    };
    const run = await runStopHook('cursor', stdin(dir), { env: {}, testRunner: broken });
    expect(run).toEqual({ exitCode: 0, stdout: '{}\n', stderr: expect.stringMatching(/the hook failed \(disk on fire\)/) });
  });
});
