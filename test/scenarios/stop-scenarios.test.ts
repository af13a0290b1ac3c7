import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Annotation, END, MemorySaver, START, StateGraph } from '@langchain/langgraph';
import { generateText, tool, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { decide, initialStopState, runAgentLoop, type StopDecision, type StopEvent, type TestEvidence } from '../../src/index.js';
import { aiSdkFinishTool, hardCapStopWhen, policyStopWhen } from '../../src/integrations/ai-sdk/index.js';
import { routeStop, STOP_ROUTES, type StopRoute } from '../../src/integrations/langgraph/index.js';
import { routeOf } from '../../src/integrations/langgraph/route-stop.js';
import { FINISH_TOOL_NAME } from '../../src/providers/index.js';
import { HOOK_FREE_ENV, runCli } from '../cli/run-cli.js';
import { buildDurableGraph, threadConfig } from '../fixtures/langgraph/durable-graph.js';
import { startLoopbackDecisionModel, systemOneAnswer } from '../hosts/loopback-decision-model.js';
import { createScriptedClient } from '../../src/testing/index.js';
import { reachedOf, ROUTE_SCENARIO_POLICY, STOP_SCENARIOS, type ReachedDecision, type StopScenario, type StopScenarioRunner } from './stop-scenarios.js';

const NO_TESTS: TestEvidence = { passed: false, failed: [], ran: 0 };

/** `decide` folded over the events until a stop, as a durable runtime would call it. */
const decideRunner: StopScenarioRunner = {
  name: 'decide',
  supports: () => true,
  async run(scenario) {
    let state = initialStopState(scenario.policy);
    let last: StopDecision | undefined;
    for (const event of scenario.events) {
      const result = decide(scenario.policy, JSON.parse(JSON.stringify(state)), event);
      state = result.state;
      last = result.decision;
      if (last.kind === 'stop') break;
    }
    return reachedOf(last as StopDecision);
  },
};

/** `runAgentLoop` with the scenario's policy: each turn returns its event's fields; verify, askHuman and the decision model answer from it. */
const runAgentLoopRunner: StopScenarioRunner = {
  name: 'runAgentLoop',
  supports: () => true,
  async run(scenario) {
    const events = scenario.events;
    const at = (step: number): StopEvent => {
      const event = events[step - 1];
      if (event === undefined) throw new Error(`the scenario has no event for step ${step}`);
      return event;
    };
    const verifies = events.some((event) => event.verification !== undefined);
    const decisions: StopDecision[] = [];
    let step = 0;
    const outcome = await runAgentLoop({
      policy: scenario.policy,
      now: () => 0,
      humanTimeoutMs: 0,
      turn: (state) => {
        step = state.step;
        const event = at(state.step);
        return {
          ...(event.output === undefined ? {} : { text: event.output }),
          ...(event.signal == null ? {} : { signal: event.signal }),
          usage: { inputTokens: event.usage?.inputTokens ?? 0, outputTokens: event.usage?.outputTokens ?? 0, cost: event.usage?.cost ?? 0 },
          ...(event.usage?.toolErrors === undefined ? {} : { toolErrors: event.usage.toolErrors }),
          ...(event.tests === undefined ? {} : { tests: event.tests }),
          ...(event.steps === undefined ? {} : { steps: event.steps }),
          ...(event.checks === undefined ? {} : { checks: event.checks }),
        };
      },
      ...(verifies
        ? {
            verify: (claim) => {
              const verification = at(claim.step).verification;
              if (verification === undefined) throw new Error(`step ${claim.step} claims done but the scenario gives no verification`);
              return verification.ok ? { ok: true } : { ok: false, unmet: verification.unmet ?? [] };
            },
          }
        : {}),
      // Without a person to ask, a need_help signal is decided as it is.
      ...(events.some((event) => event.human !== undefined)
        ? {
            askHuman: () => {
              const human = at(step).human;
              if (human === undefined) throw new Error(`step ${step} asks a person but the scenario gives no answer`);
              return human.timedOut ? new Promise<string>(() => {}) : (human.answer as string);
            },
          }
        : {}),
      // The decision model is asked about the turn just completed.
      client: createScriptedClient(() => {
        const probabilities = at(step).probabilities;
        if (probabilities === undefined) throw new Error(`the policy needs a judgement at step ${step} and the scenario gives none`);
        return probabilities;
      }),
      task: 'Fix the pagination bug.',
      acceptance: ['the last page is returned'],
      onDecision: (decision) => void decisions.push(decision),
    });
    const last = decisions.at(-1) as StopDecision;
    // The outcome is the projection of the last decision: same exit, same rule, ended on the same step.
    if (last.kind === 'stop') {
      expect(outcome).toMatchObject({ exit: last.exit, steps: last.values.step, decision: { rule: last.rule } });
    }
    return reachedOf(last);
  },
};

/** Fields a stopWhen cannot see in an AI SDK step. */
const NOT_IN_AN_AI_SDK_STEP = ['verification', 'human', 'elapsedMs', 'checks', 'tree'] as const;

/**
 * `policyStopWhen` in a real `generateText` loop: the mock model's step i calls the tools of event i (or a `work`
 * tool, so that the loop goes on), the `finish` tool for its signal, and reports its tokens; the tools return the
 * scripted results; the test reader and the decision model answer from the event.
 */
const policyStopWhenRunner: StopScenarioRunner = {
  name: 'policyStopWhen in generateText',
  supports(scenario) {
    for (const event of scenario.events) {
      for (const field of NOT_IN_AN_AI_SDK_STEP) if (event[field] !== undefined) return `an AI SDK step carries no ${field}`;
      if (event.usage?.cost !== undefined || event.usage?.toolErrors !== undefined) return 'an AI SDK step reports tokens, not cost or tool errors';
      if (event.steps?.some((step) => step.error === true || step.tool === undefined)) return 'the runner scripts successful tool calls only';
    }
    return true;
  },
  async run(scenario) {
    const events = scenario.events;
    const at = (index: number): StopEvent => events[index] as StopEvent;
    let generated = 0;
    const model: MockLanguageModelV3 = new MockLanguageModelV3({
      doGenerate: async () => {
        const index = generated++;
        const event = at(index);
        const calls = (event.steps ?? []).map((step, k) => ({ type: 'tool-call' as const, toolCallId: `call-${index}-${k}`, toolName: step.tool as string, input: JSON.stringify(step.input ?? {}) }));
        if (event.signal != null) calls.push({ type: 'tool-call', toolCallId: `finish-${index}`, toolName: FINISH_TOOL_NAME, input: JSON.stringify(event.signal) });
        if (calls.length === 0) calls.push({ type: 'tool-call', toolCallId: `work-${index}`, toolName: 'work', input: '{}' });
        return {
          content: [...(event.output === undefined ? [] : [{ type: 'text' as const, text: event.output }]), ...calls],
          finishReason: { unified: 'tool-calls', raw: 'tool_use' },
          usage: {
            inputTokens: { total: event.usage?.inputTokens ?? 0, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
            outputTokens: { total: event.usage?.outputTokens ?? 0, text: undefined, reasoning: undefined },
          },
          warnings: [],
        };
      },
    });
    const scripted = (name: string) =>
      tool({
        inputSchema: z.looseObject({}),
        execute: (_input, { toolCallId }) => {
          const [, index, k] = toolCallId.split('-').map(Number);
          return at(index as number).steps?.[k as number]?.output ?? '';
        },
      });
    const tools: ToolSet = {
      work: tool({ inputSchema: z.looseObject({}), execute: () => 'ok' }),
      [FINISH_TOOL_NAME]: { ...aiSdkFinishTool, execute: () => 'noted' },
    };
    for (const event of events) for (const step of event.steps ?? []) tools[step.tool as string] ??= scripted(step.tool as string);
    let current = 0;
    const client = createScriptedClient(() => {
      const probabilities = at(current).probabilities;
      if (probabilities === undefined) throw new Error(`the policy needs a judgement at step ${current + 1} and the scenario gives none`);
      return probabilities;
    });
    const decisions: StopDecision[] = [];
    const result = await generateText({
      model,
      tools,
      prompt: 'Fix the pagination bug.',
      stopWhen: [
        policyStopWhen({
          policy: scenario.policy,
          client,
          task: 'Fix the pagination bug.',
          acceptance: ['the last page is returned'],
          readTests: (steps) => {
            current = steps.length - 1;
            return at(current).tests ?? NO_TESTS;
          },
          onDecision: (decision) => void decisions.push(decision),
        }),
        hardCapStopWhen(events.length),
      ],
    });
    const last = decisions.at(-1) as StopDecision;
    // The loop really ended where the decision stopped it.
    if (last.kind === 'stop') expect(result.steps).toHaveLength(last.values.step as number);
    return reachedOf(last);
  },
};

/**
 * The durable demo graph (test/fixtures/langgraph/durable-graph.ts) on the scenario: the `turn` node writes the event of the next step,
 * the `stop` node decides it with `decideStop`, and `routeDecision` routes back to `turn` or to an exit node.
 * The engine's state travels in the checkpointed `stopState` channel.
 */
const langGraphRunner: StopScenarioRunner = {
  name: 'decideStop and routeDecision in a compiled LangGraph graph',
  supports: () => true,
  async run(scenario) {
    const graph = buildDurableGraph(new MemorySaver(), { log: () => undefined }, { policy: scenario.policy, eventAt: (step) => scenario.events[step - 1] });
    const config = threadConfig(scenario.name);
    const final = await graph.invoke({}, config);
    const decision = final.stopDecision as StopDecision;
    // The graph ended at the node the decision routes to, and the checkpoint holds the state of that step.
    expect(final.outcome).toBe(routeOf(decision));
    expect((await graph.getState(config)).values.stopState?.step).toBe(decision.values.step);
    return reachedOf(decision);
  },
};

/**
 * The Claude Code Stop hook, as the built CLI in a child process, once per stop attempt: the test command prints
 * the step's tests as TAP, a System One decision model on loopback answers the step's probabilities, and the
 * agent's last message is the step's output. A Stop hook decides only when the agent stops, so the scenario must
 * block (retry) on every step before its last, and its events may carry only what a Stop sees.
 */
const hookRunner: StopScenarioRunner = {
  name: 'the Claude Code Stop hook CLI',
  supports(scenario) {
    for (const event of scenario.events) {
      const extra = Object.keys(event).filter((key) => !['step', 'tests', 'probabilities', 'output'].includes(key));
      if (extra.length > 0) return `a Stop hook sees the tests, the decision model and the last message, not ${extra.join(', ')}`;
    }
    let state = initialStopState(scenario.policy);
    for (const event of scenario.events.slice(0, scenario.expected.step - 1)) {
      const result = decide(scenario.policy, state, event);
      if (result.decision.kind !== 'retry') return `step ${event.step} decides ${result.decision.kind}: the hook would let the agent stop there`;
      state = result.state;
    }
    return true;
  },
  async run(scenario) {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-scenario-hook-'));
    let current = 0;
    const server = await startLoopbackDecisionModel(() => {
      const probabilities = scenario.events[current]?.probabilities;
      return probabilities === undefined ? { status: 500, json: { error: 'the scenario gives no judgement here' } } : systemOneAnswer(probabilities);
    });
    try {
      writeFileSync(
        join(dir, 'stopwise.config.json'),
        JSON.stringify({
          task: 'Fix the pagination bug.',
          acceptance: ['the last page is returned'],
          tests: { command: 'sh run-tests.sh' },
          decisionModel: { client: 'system-one', baseURL: server.baseURL, model: 'system-one', apiKeyEnv: 'STOPWISE_TEST_KEY', timeoutMs: 30_000 },
          policy: scenario.policy,
          maxConsecutiveBlocks: 20,
          outcomesFile: 'outcomes.jsonl',
        }),
      );
      for (const [index, event] of scenario.events.entries()) {
        current = index;
        writeFileSync(join(dir, 'run-tests.sh'), tapScript(event.tests ?? NO_TESTS));
        const payload = { session_id: 'scenario', cwd: dir, hook_event_name: 'Stop', stop_hook_active: index > 0, last_assistant_message: event.output ?? '' };
        const run = await runCli(['hook', 'claude-code'], {
          cwd: dir,
          input: JSON.stringify(payload),
          env: { ...HOOK_FREE_ENV, STOPWISE_TEST_KEY: 'test-key' },
          timeoutMs: 60_000,
        });
        expect(run.code, run.stderr).toBe(0);
        const answer = run.stdout === '' ? undefined : (JSON.parse(run.stdout) as Record<string, unknown>);
        if (answer?.decision === 'block') continue;
        // The hook let the agent stop: the outcome it recorded carries the engine's decision.
        const records = readFileSync(join(dir, 'outcomes.jsonl'), 'utf8').trim().split('\n');
        expect(records).toHaveLength(1);
        const decision = (JSON.parse(records[0] as string) as { outcome: { decision: StopDecision; steps: number } }).outcome.decision;
        expect(answer === undefined).toBe(decision.kind === 'stop' && decision.exit === 'success');
        return reachedOf(decision);
      }
      throw new Error('the hook blocked every stop attempt of the scenario');
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

/** A test command that prints this evidence as TAP (the failing names as `not ok`) and exits 1 when a test fails. */
function tapScript(tests: TestEvidence): string {
  if (tests.ran === 0) return 'echo no tests here\n';
  const lines = ['TAP version 13', `1..${tests.ran}`];
  const passing = tests.ran - tests.failed.length;
  for (let i = 1; i <= passing; i++) lines.push(`ok ${i} - check ${i}`);
  tests.failed.forEach((name, k) => lines.push(`not ok ${passing + k + 1} - ${name}`));
  const quoted = lines.map((line) => `'${line.replaceAll("'", "'\\''")}'`).join(' ');
  return `printf '%s\\n' ${quoted}\n${tests.failed.length > 0 ? 'exit 1\n' : ''}`;
}

/** Every runner of this suite, with the policy-specific `routeStop` runner below. */
export const SCENARIO_RUNNERS: readonly StopScenarioRunner[] = [decideRunner, runAgentLoopRunner, policyStopWhenRunner, langGraphRunner, hookRunner];

/**
 * `routeStop` (a projection of `decide` with its own four rules) in a compiled graph: each turn sets `steps`,
 * `signal`, `verified` and `signalStep` as a graph's agent node would. It returns a route, not a decision: the test
 * compares it with the route of the expected decision, at the same step.
 */
async function runRouteStop(scenario: StopScenario): Promise<{ step: number; route: string }> {
  const last = <T>(initial: T) => Annotation<T>({ reducer: (_, next) => next, default: () => initial });
  const State = Annotation.Root({
    steps: last(0),
    maxSteps: last(4),
    signal: last<'continue' | 'done' | 'give_up' | 'need_help'>('continue'),
    verified: last(false),
    signalStep: last<number | null>(null),
    ended: last(''),
  });
  const ended = (route: string) => () => ({ ended: route });
  const compiled = new StateGraph(State)
    .addNode('turn', (state) => {
      const steps = state.steps + 1;
      const event = scenario.events[steps - 1] as StopEvent;
      const signal = event.signal?.kind ?? 'continue';
      return { steps, maxSteps: 4, signal, verified: event.verification?.ok === true, signalStep: steps };
    })
    .addNode('success', ended('success'))
    .addNode('limit', ended('limit'))
    .addNode('give_up', ended('give_up'))
    .addNode('human', ended('human'))
    .addNode('failed', ended('failed'))
    .addEdge(START, 'turn')
    .addConditionalEdges('turn', (state): StopRoute => routeStop(state), [...STOP_ROUTES])
    .addEdge('success', END)
    .addEdge('limit', END)
    .addEdge('give_up', END)
    .addEdge('human', END)
    .addEdge('failed', END)
    .compile();
  const final = await compiled.invoke({}, { recursionLimit: 100 });
  return { step: final.steps, route: final.ended };
}

describe('the scenario table', () => {
  it('holds a dozen streams or more, with unique names, each event stream in step order', () => {
    expect(STOP_SCENARIOS.length).toBeGreaterThanOrEqual(12);
    expect(new Set(STOP_SCENARIOS.map((s) => s.name)).size).toBe(STOP_SCENARIOS.length);
    for (const scenario of STOP_SCENARIOS) {
      expect(scenario.events.map((event) => event.step)).toEqual(scenario.events.map((_, i) => i + 1));
      expect(scenario.expected.step).toBeLessThanOrEqual(scenario.events.length);
    }
  });
});

for (const runner of SCENARIO_RUNNERS) {
  // The hook runner starts a process per stop attempt: on a busy machine a scenario takes seconds.
  describe(`scenarios through ${runner.name}`, { timeout: 180_000 }, () => {
    const supported = STOP_SCENARIOS.filter((scenario) => runner.supports(scenario) === true);
    it.each(supported.map((scenario) => [scenario.name, scenario] as const))('%s', async (_name, scenario: StopScenario) => {
      const reached: ReachedDecision = await runner.run(scenario);
      expect(reached).toEqual(scenario.expected);
    });
  });
}

describe('scenarios of the routeStop preset through routeStop in a compiled LangGraph graph', () => {
  const scenarios = STOP_SCENARIOS.filter((scenario) => scenario.policy === ROUTE_SCENARIO_POLICY);
  it.each(scenarios.map((scenario) => [scenario.name, scenario] as const))('%s', async (_name, scenario: StopScenario) => {
    const expected = scenario.expected;
    const decision = { kind: expected.kind, ...(expected.exit === undefined ? {} : { exit: expected.exit }) } as StopDecision;
    expect(await runRouteStop(scenario)).toEqual({ step: expected.step, route: routeOf(decision) });
  });
});

describe('which scenarios each runner covers', () => {
  it('decide, runAgentLoop and the graph run every scenario; policyStopWhen and the hook every one they can express', () => {
    const covered = (runner: StopScenarioRunner) => STOP_SCENARIOS.filter((scenario) => runner.supports(scenario) === true).map((s) => s.name);
    expect(covered(decideRunner)).toHaveLength(STOP_SCENARIOS.length);
    expect(covered(runAgentLoopRunner)).toHaveLength(STOP_SCENARIOS.length);
    expect(STOP_SCENARIOS.filter((scenario) => policyStopWhenRunner.supports(scenario) !== true).map((s) => s.name)).toEqual([
      'need help, answered',
      'need help, timed out',
      'budget on cost',
      'a done that verification rejects, then accepts',
      'a done code verified, after one it rejected',
    ]);
    expect(covered(langGraphRunner)).toHaveLength(STOP_SCENARIOS.length);
    expect(covered(hookRunner)).toEqual(HOOK_SCENARIOS);
  });
});

/** The scenarios a Stop hook can express: every step before the last blocks, on tests, judgement and output alone. */
const HOOK_SCENARIOS = ['green at step 3', 'red then green', 'the decision model says done on red', 'mid band, then low', 'stall on identical progress', 'cap'];
