import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestEvidence } from '../../src/core/test-evidence.js';
import { EvaluationError } from '../../src/judge/evaluation-error.js';
import type { HookDecisionModel, HookCompletionRequest } from '../../src/hosts/hook-decision-model.js';
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
    const dir = project({ task: 'Ship the login page', judge: { client: 'system-one' } });
    const red: TestEvidence = { passed: false, failed: ['login > shows errors'], ran: 4 };
    const green: TestEvidence = { passed: true, failed: [], ran: 4 };
    const runner = scriptedRunner([{ outcome: 'ran', evidence: red }, { outcome: 'reused', evidence: green }]);
    const asked: HookCompletionRequest[] = [];
    const model: HookDecisionModel = {
      async check(request) {
        asked.push(request);
        return { modelSaysDone: request.tests.passed, probabilities: { acceptanceCovered: request.tests.passed ? 0.9 : 0.2 } };
      },
    };
    const options = { env: {}, testRunner: runner, createDecisionModel: async () => model };
    const first = await runStopHook('claude-code', stdin(dir), options);
    expect(JSON.parse(first.stdout)).toMatchObject({ decision: 'block', reason: expect.stringContaining('login > shows errors') });
    const second = await runStopHook('claude-code', stdin(dir), { ...options });
    expect(second).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(runner.previous).toEqual([undefined, expect.objectContaining(red)]);
    expect(asked.map((request) => request.tests.passed)).toEqual([false]);
  });

  it('does not ask the model when the evidence decides, and lets a model error through as a message', async () => {
    const dir = project({ task: 't', judge: { client: 'system-one' }, maxConsecutiveBlocks: 5 });
    let created = 0;
    const options = {
      env: {},
      testRunner: scriptedRunner([
        { outcome: 'ran', evidence: { passed: false, failed: [], ran: 0 } },
        { outcome: 'ran', evidence: { passed: true, failed: [], ran: 3 } },
      ]),
      createDecisionModel: async () => {
        created++;
        return new EvaluationError('configuration', 'missing STOPWISE_KEY');
      },
    };
    const none = await runStopHook('codex', stdin(dir), options);
    expect(JSON.parse(none.stdout).reason).toMatch(/^No tests ran/);
    expect(created).toBe(0);
    const green = await runStopHook('codex', stdin(dir), options);
    expect(JSON.parse(green.stdout)).toEqual({ systemMessage: expect.stringContaining('missing STOPWISE_KEY') });
    expect(created).toBe(1);
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
