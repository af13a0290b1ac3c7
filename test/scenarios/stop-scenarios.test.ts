import { generateText, tool, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  aiSdkFinishTool,
  decide,
  FINISH_TOOL_NAME,
  initialStopState,
  runAgentLoop,
  type StopDecision,
  type StopEvent,
  type TestEvidence,
} from '../../src/index.js';
import { hardCapStopWhen, policyStopWhen } from '../../src/integrations/ai-sdk/index.js';
import { createScriptedClient } from '../../src/testing/index.js';
import { reachedOf, STOP_SCENARIOS, type ReachedDecision, type StopScenario, type StopScenarioRunner } from './stop-scenarios.js';

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

/** `runAgentLoop` with the scenario's policy: each turn returns its event's fields; verify, askHuman and the judge answer from it. */
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
      askHuman: () => {
        const human = at(step).human;
        if (human === undefined) throw new Error(`step ${step} asks a person but the scenario gives no answer`);
        return human.timedOut ? new Promise<string>(() => {}) : (human.answer as string);
      },
      evaluateCriteria: ({ step: judged }) => {
        const probabilities = at(judged).probabilities;
        if (probabilities === undefined) throw new Error(`the policy needs a judgement at step ${judged} and the scenario gives none`);
        return probabilities;
      },
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

/** Every runner of this suite; others (the Claude Code hook CLI, LangGraph's routeStop) add theirs to this list. */
export const SCENARIO_RUNNERS: readonly StopScenarioRunner[] = [decideRunner, runAgentLoopRunner, policyStopWhenRunner];

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
  describe(`scenarios through ${runner.name}`, () => {
    const supported = STOP_SCENARIOS.filter((scenario) => runner.supports(scenario) === true);
    it.each(supported.map((scenario) => [scenario.name, scenario] as const))('%s', async (_name, scenario: StopScenario) => {
      const reached: ReachedDecision = await runner.run(scenario);
      expect(reached).toEqual(scenario.expected);
    });
  });
}

describe('which scenarios each runner covers', () => {
  it('decide and runAgentLoop run every scenario; policyStopWhen every one an AI SDK step can express', () => {
    const covered = (runner: StopScenarioRunner) => STOP_SCENARIOS.filter((scenario) => runner.supports(scenario) === true).map((s) => s.name);
    expect(covered(decideRunner)).toHaveLength(STOP_SCENARIOS.length);
    expect(covered(runAgentLoopRunner)).toHaveLength(STOP_SCENARIOS.length);
    expect(STOP_SCENARIOS.filter((scenario) => policyStopWhenRunner.supports(scenario) !== true).map((s) => s.name)).toEqual([
      'need help, answered',
      'need help, timed out',
      'budget on cost',
      'a done that verification rejects, then accepts',
    ]);
  });
});
