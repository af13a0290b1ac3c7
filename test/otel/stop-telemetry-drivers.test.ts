import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestEvidence } from '../../src/core/test-evidence.js';
import type { HookTestResult, HookTestRunner } from '../../src/hosts/hook-test-runner.js';
import { runStopHook } from '../../src/hosts/run-stop-hook.js';
import { hardCapStopWhen } from '../../src/integrations/ai-sdk/hard-cap-stop-when.js';
import { policyStopWhen } from '../../src/integrations/ai-sdk/policy-stop-when.js';
import { disableStopTelemetry, enableStopTelemetry } from '../../src/otel/stop-telemetry.js';
import { createScriptedClient } from '../../src/testing/scripted-client.js';
import { ACCEPTANCE, DONE, editWorkspace, NOT_DONE, TASK } from '../integrations/ai-sdk/fixtures.js';
import { toolLoopModel } from '../integrations/ai-sdk/mock-model.js';
import { startOtelSdk, type OtelSdk } from './otel-sdk.js';

let sdk: OtelSdk;

beforeEach(() => {
  sdk = startOtelSdk();
});

afterEach(async () => {
  disableStopTelemetry();
  await sdk.shutdown();
});

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-otel-'));
  writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'unused' }, task: 'Ship the login page', acceptance: ['errors are shown'], judge: { client: 'system-one' } }));
  return dir;
}

function scriptedRunner(results: TestEvidence[]): HookTestRunner {
  return {
    async run() {
      const evidence = results.shift();
      if (evidence === undefined) throw new Error('no more scripted test results');
      return { outcome: 'ran', evidence } satisfies HookTestResult;
    },
  };
}

const stdin = (dir: string) => JSON.stringify({ session_id: 'otel', cwd: dir, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'done' });

describe('stop telemetry around the stop hook', () => {
  it('marks a blocked stop as a retry and an allowed one as a success, with the decision model on the span', async () => {
    enableStopTelemetry({ taskType: 'web' });
    const dir = project();
    const client = createScriptedClient([
      { acceptanceCovered: 0.2, noOpenQuestions: 0.9 },
      { acceptanceCovered: 0.95, noOpenQuestions: 0.9 },
    ]);
    const options = {
      env: {},
      client,
      testRunner: scriptedRunner([
        { passed: true, failed: [], ran: 4 },
        { passed: true, failed: [], ran: 4 },
        { passed: true, failed: [], ran: 4 },
      ]),
    };
    const hook = (name: string) =>
      sdk.tracer.startActiveSpan(name, async (span) => {
        try {
          return await runStopHook('claude-code', stdin(dir), options);
        } finally {
          span.end();
        }
      });
    const blocked = await hook('first stop');
    expect(JSON.parse(blocked.stdout)).toMatchObject({ decision: 'block' });
    // The stop right after a block re-enters: it is let go without asking the decision model again.
    const reentry = await hook('second stop');
    expect(reentry.stdout).toBe('');
    const allowed = await hook('third stop');
    expect(allowed.stdout).toBe('');

    const [first, reentered, second] = sdk.spans();
    expect(reentered?.attributes).toMatchObject({ 'stopwise.exit': 'success', 'stopwise.reason': 'stop_allowed' });
    expect(reentered?.attributes['stopwise.judge.calls']).toBeUndefined();
    // The re-entry is decided by the hook preset alone: a decision, and no request to the decision model.
    expect(reentered?.events.map((event) => event.name)).toEqual(['stopwise.decision']);
    expect(first?.attributes).toMatchObject({ 'stopwise.driver': 'stop-hook', 'stopwise.decision.kind': 'retry', 'stopwise.reason': 'stop_blocked', 'stopwise.judge.calls': 1 });
    expect(first?.attributes['stopwise.exit']).toBeUndefined();
    expect(second?.attributes).toMatchObject({
      'stopwise.decision.kind': 'stop',
      'stopwise.exit': 'success',
      'stopwise.reason': 'stop_allowed',
      'stopwise.rule': 'stop_hook',
      'stopwise.value.host': 'claude-code',
      'stopwise.judge.calls': 1,
      'gen_ai.agent.finish_reason': 'completed',
    });
    expect(second?.events.map((event) => event.name)).toEqual(['stopwise.judge_call', 'stopwise.decision']);
    await sdk.collect();
    expect(sdk.points('stopwise.stops').map((point) => [point.attributes, point.value])).toEqual([
      [{ 'stopwise.exit': 'success', 'stopwise.reason': 'stop_allowed', 'stopwise.task_type': 'web' }, 2],
    ]);
  });

  it('marks a hand-off as need_help and records the seed decision that caused it', async () => {
    enableStopTelemetry();
    const dir = project();
    writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'unused' }, judge: { client: 'none' }, policy: { maxSteps: 1 } }));
    await sdk.tracer.startActiveSpan('stop', async (span) => {
      await runStopHook('codex', stdin(dir), { env: {}, testRunner: scriptedRunner([{ passed: false, failed: ['x'], ran: 2 }]) });
      span.end();
    });
    const [stop] = sdk.spans();
    expect(stop?.events.map((event) => [event.name, event.attributes?.['stopwise.rule'], event.attributes?.['stopwise.exit']])).toEqual([
      ['stopwise.decision', 'hard_cap', 'limit'],
    ]);
    expect(stop?.attributes).toMatchObject({ 'stopwise.exit': 'need_help', 'stopwise.reason': 'handed_off', 'gen_ai.agent.finish_reason': 'handoff' });
  });
});

describe('stop telemetry in an AI SDK loop', () => {
  it('puts the decisions and the final stop on the AI SDK spans, and adds no span of its own', async () => {
    enableStopTelemetry({ agentName: 'paginator', taskType: 'bugfix' });
    const ws = editWorkspace(3);
    const client = createScriptedClient([NOT_DONE, NOT_DONE, DONE]);
    const result = await generateText({
      model: toolLoopModel('edit'),
      tools: ws.tools,
      prompt: TASK,
      experimental_telemetry: { isEnabled: true, functionId: 'paginate-fix' },
      stopWhen: [hardCapStopWhen(10), policyStopWhen({ client, task: TASK, acceptance: ACCEPTANCE, readTests: ws.readTests })],
    });
    expect(result.steps).toHaveLength(3);

    const spans = sdk.spans();
    expect(spans.length).toBeGreaterThan(3);
    for (const span of spans) expect(span.name).toMatch(/^ai\./);
    const outer = spans.find((span) => span.name === 'ai.generateText');
    expect(outer).toBeDefined();
    // hardCapStopWhen is a one-rule policy too: its decision on each step is no_rule_fired until the cap.
    expect(outer?.events.filter((event) => event.name === 'stopwise.decision' && event.attributes?.['stopwise.reason'] !== 'no_rule_fired').map((event) => [event.attributes?.['stopwise.step'], event.attributes?.['stopwise.reason']])).toEqual([
      [1, 'tests_failed'],
      [2, 'tests_failed'],
      [3, 'tests_and_criteria_passed'],
    ]);
    // The decision model is asked after every step: failing tests alone do not decide while it may say done.
    expect(outer?.events.filter((event) => event.name === 'stopwise.judge_call')).toHaveLength(3);
    expect(outer?.attributes).toMatchObject({
      'ai.operationId': 'ai.generateText',
      'stopwise.driver': 'ai-sdk',
      'stopwise.decision.kind': 'stop',
      'stopwise.exit': 'success',
      'stopwise.reason': 'tests_and_criteria_passed',
      'stopwise.rule': 'tests_and_criteria_passed',
      'stopwise.value.lowestProbability': 0.9,
      'stopwise.judge.calls': 3,
      'gen_ai.agent.name': 'paginator',
      'gen_ai.agent.finish_reason': 'completed',
    });
    for (const span of spans.filter((span) => span !== outer)) {
      expect(Object.keys(span.attributes).filter((key) => key.startsWith('stopwise.'))).toEqual([]);
    }
    await sdk.collect();
    expect(sdk.points('stopwise.stops').map((point) => [point.attributes, point.value])).toEqual([
      [{ 'stopwise.exit': 'success', 'stopwise.reason': 'tests_and_criteria_passed', 'stopwise.task_type': 'bugfix' }, 1],
    ]);
  });
});
