import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decide } from '../../src/core/policy/decide.js';
import { SEED_STOP_POLICY } from '../../src/core/policy/seed-stop-policy.js';
import { initialStopState } from '../../src/core/policy/stop-state.js';
import { notifyStopEnd, setStopObserver } from '../../src/core/stop-observer.js';
import { checkCompletion } from '../../src/decision-model/check-completion.js';
import { runAgentLoop } from '../../src/loop/run-agent-loop.js';
import { disableStopTelemetry, enableStopTelemetry, isStopTelemetryEnabled } from '../../src/otel/stop-telemetry.js';
import { createScriptedClient } from '../../src/testing/scripted-client.js';
import { histogramOf, startOtelSdk, type OtelSdk } from './otel-sdk.js';

let sdk: OtelSdk;

beforeEach(() => {
  sdk = startOtelSdk();
});

afterEach(async () => {
  disableStopTelemetry();
  await sdk.shutdown();
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
    const client = createScriptedClient([{ acceptanceCovered: 0.95, noOpenQuestions: 0.9 }], { model: 'judge-1' });
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
      'stopwise.reason': 'success',
      'stopwise.rule': 'verified_done',
      'stopwise.value.steps': 2,
      'stopwise.task_type': 'bugfix',
      'stopwise.steps': 2,
      'stopwise.cost': 0.01,
      'stopwise.judge.calls': 1,
      'stopwise.human.questions': 1,
      'stopwise.human.wait_ms': 1_500,
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'fixer',
      'gen_ai.agent.finish_reason': 'completed',
      'gen_ai.usage.input_tokens': 250,
      'gen_ai.usage.output_tokens': 50,
    });
    // The loop's own decision after each turn, and the seed decision its verify step makes after the judge call.
    expect(run?.events.map((event) => event.name)).toEqual(['stopwise.decision', 'stopwise.judge_call', 'stopwise.decision', 'stopwise.decision']);
    expect(run?.events.map((event) => event.attributes?.['stopwise.reason'])).toEqual([expect.any(String), undefined, 'tests_and_criteria_passed', 'verified']);
    expect(run?.events[1]?.attributes).toEqual({ 'stopwise.judge.model': 'judge-1', 'stopwise.judge.input_tokens': 0, 'stopwise.judge.output_tokens': 0 });
    expect(run?.events[2]?.attributes).toMatchObject({
      'stopwise.decision.kind': 'stop',
      'stopwise.exit': 'success',
      'stopwise.reason': 'tests_and_criteria_passed',
      'stopwise.rule': 'tests_and_criteria_passed',
      'stopwise.step': 2,
      'stopwise.judge.calls': 1,
      'stopwise.value.ran': 12,
      'stopwise.value.lowestProbability': 0.9,
    });

    await sdk.collect();
    expect(sdk.points('stopwise.stops').map((point) => [point.attributes, point.value])).toEqual([
      [{ 'stopwise.exit': 'success', 'stopwise.reason': 'success', 'stopwise.task_type': 'bugfix' }, 1],
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
      'stopwise.reason': 'limit:steps',
      'stopwise.rule': 'budget.maxSteps',
      'stopwise.value.used': 2,
      'stopwise.value.max': 2,
      'stopwise.task_type': 'loop-task',
      'gen_ai.agent.finish_reason': 'max_iterations',
    });
    expect(run?.attributes['gen_ai.agent.name']).toBeUndefined();
    expect(run?.attributes['stopwise.human.questions']).toBeUndefined();
    await sdk.collect();
    expect(sdk.points('stopwise.stops').map((point) => point.attributes)).toEqual([
      { 'stopwise.exit': 'limit', 'stopwise.reason': 'limit:steps', 'stopwise.task_type': 'loop-task' },
    ]);
    expect(sdk.points('stopwise.human_wait')).toEqual([]);
  });

  it('makes a stopwise.stop span for a run that ends with no active span', async () => {
    enableStopTelemetry();
    await runAgentLoop({ limits: { maxSteps: 5 }, turn: async () => ({ signal: { kind: 'give_up', note: 'no access' } }), verify: async () => ({ ok: true }) });
    const spans = sdk.spans();
    expect(spans.map((span) => [span.name, span.parentSpanContext])).toEqual([['stopwise.stop', undefined]]);
    expect(spans[0]?.attributes).toMatchObject({ 'stopwise.exit': 'gave_up', 'stopwise.rule': 'give_up_signal', 'stopwise.task_type': 'unknown', 'gen_ai.agent.finish_reason': 'gave_up' });
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
    expect(run?.attributes).toMatchObject({ 'stopwise.decision.kind': 'retry', 'stopwise.rule': 'tests_failed', 'stopwise.judge.calls': 0, 'stopwise.judge.cost': 0 });
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
