import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decide, initialStopState } from '../../src/core/policy/decide.js';
import { SEED_STOP_POLICY } from '../../src/core/policy/seed-stop-policy.js';
import { notifyStopEnd, setStopObserver } from '../../src/core/stop-observer.js';
import type { TestEvidence } from '../../src/core/test-evidence.js';
import { checkCompletion } from '../../src/decision-model/check-completion.js';
import type { ProjectTestRunner } from '../../src/hosts/project-tests.js';
import { runHook } from '../../src/hosts/run-hook.js';
import { hardCapStopWhen } from '../../src/integrations/ai-sdk/hard-cap-stop-when.js';
import { policyStopWhen } from '../../src/integrations/ai-sdk/policy-stop-when.js';
import { runAgentLoop } from '../../src/loop/run-agent-loop.js';
import { disableStopTelemetry, enableStopTelemetry, isStopTelemetryEnabled } from '../../src/otel/stop-telemetry.js';
import { createScriptedClient } from '../../src/testing/scripted-client.js';
import { ACCEPTANCE, DONE, editWorkspace, NOT_DONE, TASK } from '../integrations/ai-sdk/fixtures.js';
import { toolLoopModel } from '../integrations/ai-sdk/mock-model.js';
import { histogramOf, startOtelSdk, type OtelSdk } from './otel-sdk.js';

let sdk: OtelSdk;
const folders: string[] = [];

beforeEach(() => {
  sdk = startOtelSdk();
});

afterEach(async () => {
  disableStopTelemetry();
  await sdk.shutdown();
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A clock that moves only when told. */
function manualClock() {
  let now = 1_000;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

const PASS = { passed: true, failed: [], ran: 12 };

describe('stop telemetry around runAgentLoop', () => {
  it('puts the decisions on the active span and the final stop, the decision model and the human wait on the run span', async () => {
    enableStopTelemetry({ agentName: 'fixer', taskType: 'bugfix' });
    const clock = manualClock();
    const client = createScriptedClient([{ acceptanceCovered: 0.95, noOpenQuestions: 0.9 }], { model: 'decision-model-1' });
    let state = initialStopState(SEED_STOP_POLICY);
    const outcome = await sdk.tracer.startActiveSpan('invoke_agent fixer', async (span) => {
      try {
        return await runAgentLoop({
          limits: { maxSteps: 10 },
          now: clock.now,
          turn: async (turn) => {
            clock.advance(100);
            return turn.step === 1
              ? { signal: { kind: 'need_help', note: 'Which database?' }, text: 'asking', usage: { inputTokens: 100, outputTokens: 20 } }
              : { signal: { kind: 'done', note: 'fixed' }, text: 'fixed it', usage: { inputTokens: 150, outputTokens: 30, cost: 0.01 } };
          },
          askHuman: async () => {
            clock.advance(1_500);
            return 'Postgres';
          },
          verify: async (claim) => {
            const check = await checkCompletion(client, { task: 'fix it', output: claim.text, acceptance: ['it works'], tests: PASS });
            const result = decide(SEED_STOP_POLICY, state, { step: claim.step, tests: PASS, probabilities: check.probabilities, output: claim.text, usage: { decisionModelCalls: 1 } });
            state = result.state;
            return result.decision.kind === 'stop' && result.decision.exit === 'success' ? { ok: true } : { ok: false, unmet: ['it works'] };
          },
        });
      } finally {
        span.end();
      }
    });
    expect(outcome.exit).toBe('success');

    const spans = sdk.spans();
    expect(spans.map((span) => span.name)).toEqual(['invoke_agent fixer']);
    const [run] = spans;
    expect(run?.attributes).toMatchObject({
      'stopwise.driver': 'run-agent-loop',
      'stopwise.decision.kind': 'stop',
      'stopwise.exit': 'success',
      'stopwise.reason': 'verified',
      'stopwise.rule': 'verified',
      'stopwise.value.step': 2,
      'stopwise.value.verified': true,
      'stopwise.task_type': 'bugfix',
      'stopwise.steps': 2,
      'stopwise.cost': 0.01,
      'stopwise.decision_model.calls': 1,
      'stopwise.human.questions': 1,
      'stopwise.human.wait_ms': 1_500,
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'fixer',
      'gen_ai.agent.finish_reason': 'completed',
      'gen_ai.usage.input_tokens': 250,
      'gen_ai.usage.output_tokens': 50,
    });
    // The loop's own decision after each turn, and the seed decision its verify step makes after the decision model call;
    // neither the step-0 event that did not stop the run nor the done-signal check of checkCompletion is a decision of the run.
    expect(run?.events.map((event) => event.name)).toEqual(['stopwise.decision', 'stopwise.decision_model_call', 'stopwise.decision', 'stopwise.decision']);
    expect(run?.events.map((event) => event.attributes?.['stopwise.reason'])).toEqual([expect.any(String), undefined, 'tests_and_criteria_passed', 'verified']);
    expect(run?.events[1]?.attributes).toEqual({ 'stopwise.decision_model.model': 'decision-model-1', 'stopwise.decision_model.input_tokens': 0, 'stopwise.decision_model.output_tokens': 0 });
    expect(run?.events[2]?.attributes).toMatchObject({
      'stopwise.decision.kind': 'stop',
      'stopwise.exit': 'success',
      'stopwise.reason': 'tests_and_criteria_passed',
      'stopwise.rule': 'tests_and_criteria_passed',
      'stopwise.step': 2,
      'stopwise.decision_model.calls': 1,
      'stopwise.value.ran': 12,
      'stopwise.value.lowestProbability': 0.9,
    });

    await sdk.collect();
    expect(sdk.points('stopwise.stops').map((point) => [point.attributes, point.value])).toEqual([
      [{ 'stopwise.exit': 'success', 'stopwise.reason': 'verified', 'stopwise.task_type': 'bugfix' }, 1],
    ]);
    const wait = histogramOf(sdk.points('stopwise.human_wait')[0]);
    expect([wait.count, wait.sum]).toEqual([1, 1_500]);
  });

  it('names the limit that ended the run, with the values it compared and the GenAI finish reason', async () => {
    enableStopTelemetry({ taskType: (end) => (end.driver === 'run-agent-loop' ? 'loop-task' : undefined) });
    await sdk.tracer.startActiveSpan('run', async (span) => {
      await runAgentLoop({ limits: { maxSteps: 2 }, now: () => 0, turn: async () => ({ text: 'working' }), verify: async () => ({ ok: true }) });
      span.end();
    });
    const [run] = sdk.spans();
    expect(run?.attributes).toMatchObject({
      'stopwise.exit': 'limit',
      'stopwise.reason': 'maxSteps',
      'stopwise.rule': 'maxSteps',
      'stopwise.value.steps': 2,
      'stopwise.value.maxSteps': 2,
      'stopwise.task_type': 'loop-task',
      'gen_ai.agent.finish_reason': 'max_iterations',
    });
    expect(run?.attributes['gen_ai.agent.name']).toBeUndefined();
    expect(run?.attributes['stopwise.human.questions']).toBeUndefined();
    await sdk.collect();
    expect(sdk.points('stopwise.stops').map((point) => point.attributes)).toEqual([
      { 'stopwise.exit': 'limit', 'stopwise.reason': 'maxSteps', 'stopwise.task_type': 'loop-task' },
    ]);
    expect(sdk.points('stopwise.human_wait')).toEqual([]);
  });

  it('makes a stopwise.stop span for a run that ends with no active span', async () => {
    enableStopTelemetry();
    await runAgentLoop({ limits: { maxSteps: 5 }, turn: async () => ({ signal: { kind: 'give_up', note: 'no access' } }), verify: async () => ({ ok: true }) });
    const spans = sdk.spans();
    expect(spans.map((span) => [span.name, span.parentSpanContext])).toEqual([['stopwise.stop', undefined]]);
    expect(spans[0]?.attributes).toMatchObject({ 'stopwise.exit': 'gave_up', 'stopwise.rule': 'gave_up', 'stopwise.task_type': 'unknown', 'gen_ai.agent.finish_reason': 'gave_up' });
  });

  it('records nothing when telemetry is not enabled, or after it is disabled', async () => {
    const run = () =>
      sdk.tracer.startActiveSpan('run', async (span) => {
        decide(SEED_STOP_POLICY, initialStopState(SEED_STOP_POLICY), { step: 1, tests: PASS, probabilities: { a: 0.99 } });
        await runAgentLoop({ limits: { maxSteps: 1 }, turn: async () => ({ text: 'x' }), verify: async () => ({ ok: true }) });
        span.end();
      });
    await run();
    enableStopTelemetry();
    expect(isStopTelemetryEnabled()).toBe(true);
    disableStopTelemetry();
    expect(isStopTelemetryEnabled()).toBe(false);
    await run();
    const spans = sdk.spans();
    expect(spans).toHaveLength(2);
    for (const span of spans) {
      expect(span.events).toEqual([]);
      expect(Object.keys(span.attributes)).toEqual([]);
    }
    await sdk.collect();
    expect(sdk.points('stopwise.stops')).toEqual([]);
    expect(sdk.points('stopwise.human_wait')).toEqual([]);
  });

  it('adds no event for a replayed step, and no counter for a run end that lets the run go on', async () => {
    enableStopTelemetry();
    await sdk.tracer.startActiveSpan('run', async (span) => {
      const first = decide(SEED_STOP_POLICY, initialStopState(SEED_STOP_POLICY), { step: 1, tests: { passed: false, failed: ['a'], ran: 3 }, probabilities: { a: 0.1 } });
      decide(SEED_STOP_POLICY, first.state, { step: 1, tests: { passed: false, failed: ['a'], ran: 3 }, probabilities: { a: 0.1 } });
      notifyStopEnd({ driver: 'custom', decision: first.decision, totals: first.state.totals });
      span.end();
    });
    const [run] = sdk.spans();
    expect(run?.events.map((event) => [event.name, event.attributes?.['stopwise.reason'], event.attributes?.['stopwise.value.failed']])).toEqual([
      ['stopwise.decision', 'tests_failed', ['a']],
    ]);
    expect(run?.attributes).toMatchObject({ 'stopwise.decision.kind': 'retry', 'stopwise.rule': 'tests_failed', 'stopwise.decision_model.calls': 0, 'stopwise.decision_model.cost': 0 });
    expect(run?.attributes['gen_ai.agent.finish_reason']).toBeUndefined();
    await sdk.collect();
    expect(sdk.points('stopwise.stops')).toEqual([]);
  });

  it('leaves an observer that other code installed in place when disabled', () => {
    const other = { runEnd: () => undefined };
    setStopObserver(other);
    disableStopTelemetry();
    expect(setStopObserver(undefined)).toBe(other);
  });

  it('keeps the run attributes and the metrics and drops the per-decision events with decisionEvents: false', async () => {
    enableStopTelemetry({ decisionEvents: false });
    await sdk.tracer.startActiveSpan('run', async (span) => {
      const result = decide(SEED_STOP_POLICY, initialStopState(SEED_STOP_POLICY), { step: 1, tests: PASS, probabilities: { a: 0.99 } });
      notifyStopEnd({ driver: 'custom', decision: result.decision, taskType: 'given' });
      span.end();
    });
    const [run] = sdk.spans();
    expect(run?.events).toEqual([]);
    expect(run?.attributes).toMatchObject({ 'stopwise.exit': 'success', 'stopwise.task_type': 'given' });
    await sdk.collect();
    expect(sdk.points('stopwise.stops').map((point) => point.attributes['stopwise.task_type'])).toEqual(['given']);
  });

  it('refuses options of the wrong type', () => {
    expect(() => enableStopTelemetry({ taskType: 3 as never })).toThrow(/taskType must be a string or a function/);
    expect(() => enableStopTelemetry({ agentName: {} as never })).toThrow(/agentName must be a string/);
    expect(() => enableStopTelemetry(null as never)).toThrow(TypeError);
    expect(isStopTelemetryEnabled()).toBe(false);
  });
});

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'stopwise-otel-'));
  folders.push(dir);
  writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'unused' }, task: 'Ship the login page', acceptance: ['errors are shown'], decisionModel: { client: 'system-one' } }));
  return dir;
}

function scriptedRunner(results: TestEvidence[]): ProjectTestRunner {
  return {
    async run() {
      const evidence = results.shift();
      if (evidence === undefined) throw new Error('no more scripted test results');
      return { outcome: 'ran', evidence };
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
          return await runHook('claude-code', stdin(dir), options);
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
    // The stop right after a block re-enters: the hook preset lets it go on the passing tests, without asking the decision model.
    expect(reentered?.attributes).toMatchObject({ 'stopwise.exit': 'success', 'stopwise.reason': 'passed_after_block', 'stopwise.rule': 'passed_after_block', 'stopwise.value.retries': 1 });
    expect(reentered?.attributes['stopwise.decision_model.calls']).toBeUndefined();
    expect(reentered?.events.map((event) => event.name)).toEqual(['stopwise.decision']);
    expect(first?.attributes).toMatchObject({
      'stopwise.driver': 'stop-hook',
      'stopwise.decision.kind': 'retry',
      'stopwise.reason': 'criteria_below_threshold',
      'stopwise.rule': 'criteria_below_threshold',
      'stopwise.value.lowestProbability': 0.2,
      'stopwise.decision_model.calls': 1,
    });
    expect(first?.attributes['stopwise.exit']).toBeUndefined();
    expect(first?.events.map((event) => [event.name, event.attributes?.['stopwise.policy']])).toEqual([
      ['stopwise.decision_model_call', undefined],
      ['stopwise.decision', 'hook'],
    ]);
    expect(second?.attributes).toMatchObject({
      'stopwise.decision.kind': 'stop',
      'stopwise.exit': 'success',
      'stopwise.reason': 'tests_and_criteria_passed',
      'stopwise.rule': 'tests_and_criteria_passed',
      'stopwise.value.step': 1,
      'stopwise.decision_model.calls': 1,
      'gen_ai.agent.finish_reason': 'completed',
    });
    expect(second?.events.map((event) => event.name)).toEqual(['stopwise.decision_model_call', 'stopwise.decision']);
    await sdk.collect();
    expect(sdk.points('stopwise.stops').map((point) => [point.attributes, point.value])).toEqual([
      [{ 'stopwise.exit': 'success', 'stopwise.reason': 'passed_after_block', 'stopwise.task_type': 'web' }, 1],
      [{ 'stopwise.exit': 'success', 'stopwise.reason': 'tests_and_criteria_passed', 'stopwise.task_type': 'web' }, 1],
    ]);
  });

  it('marks a hand-off at the step cap as a limit, with the hook decision that caused it', async () => {
    enableStopTelemetry();
    const dir = project();
    writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'unused' }, decisionModel: { client: 'none' }, policy: { maxSteps: 1 } }));
    await sdk.tracer.startActiveSpan('stop', async (span) => {
      await runHook('codex', stdin(dir), { env: {}, testRunner: scriptedRunner([{ passed: false, failed: ['x'], ran: 2 }]) });
      span.end();
    });
    const [stop] = sdk.spans();
    expect(stop?.events.map((event) => [event.name, event.attributes?.['stopwise.rule'], event.attributes?.['stopwise.exit'], event.attributes?.['stopwise.policy']])).toEqual([
      ['stopwise.decision', 'hard_cap', 'limit', 'hook'],
    ]);
    expect(stop?.attributes).toMatchObject({
      'stopwise.exit': 'limit',
      'stopwise.reason': 'hard_cap',
      'stopwise.value.maxSteps': 1,
      'gen_ai.agent.finish_reason': 'max_iterations',
      'stopwise.task_type': 'unknown',
    });
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
    expect(outer?.events.filter((event) => event.name === 'stopwise.decision_model_call')).toHaveLength(3);
    expect(outer?.attributes).toMatchObject({
      'ai.operationId': 'ai.generateText',
      'stopwise.driver': 'ai-sdk',
      'stopwise.decision.kind': 'stop',
      'stopwise.exit': 'success',
      'stopwise.reason': 'tests_and_criteria_passed',
      'stopwise.rule': 'tests_and_criteria_passed',
      'stopwise.value.lowestProbability': 0.9,
      'stopwise.decision_model.calls': 3,
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
