import { generateText, tool, ToolLoopAgent } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseStopPolicy } from '../../../src/core/policy/parse-stop-policy.js';
import { SEED_STOP_POLICY } from '../../../src/core/policy/seed-stop-policy.js';
import type { StopDecision } from '../../../src/core/policy/stop-decision.js';
import type { StopEvent } from '../../../src/core/policy/stop-event.js';
import { STOP_POLICY_VERSION } from '../../../src/core/policy/stop-policy-document.js';
import { DecisionModelError } from '../../../src/decision-model/decision-model-error.js';
import { hardCapStopWhen } from '../../../src/integrations/ai-sdk/hard-cap-stop-when.js';
import { policyStopWhen } from '../../../src/integrations/ai-sdk/policy-stop-when.js';
import type { StepDecisionOptions } from '../../../src/integrations/ai-sdk/step-decider.js';
import { aiSdkFinishTool } from '../../../src/providers/finish-tool.js';
import { createScriptedClient } from '../../../src/testing/scripted-client.js';
import { ACCEPTANCE, DONE, editWorkspace as workspace, NOT_DONE, PASS, TASK } from './fixtures.js';
import { textResult, toolCallResult, toolLoopModel } from './mock-model.js';

type Tools = ReturnType<typeof workspace>['tools'];

/** A real generateText loop of `edit` steps stopped by policyStopWhen alone; returns the result and every decision. */
async function runPolicyLoop(ws: ReturnType<typeof workspace>, options: Partial<StepDecisionOptions<Tools>>) {
  const decisions: StopDecision[] = [];
  const result = await generateText({
    model: toolLoopModel('edit'),
    tools: ws.tools,
    prompt: TASK,
    stopWhen: policyStopWhen({
      task: TASK,
      acceptance: ACCEPTANCE,
      readTests: ws.readTests,
      onDecision: (d: StopDecision) => void decisions.push(d),
      ...options,
    } as StepDecisionOptions<Tools>),
  });
  return { result, decisions };
}

const summary = (d: StopDecision) => [d.values.step, d.kind, d.rule];

describe('policyStopWhen with the seed preset', () => {
  it('stops a real generateText loop when the tests pass and the decision model says done', async () => {
    const model = toolLoopModel('edit');
    const ws = workspace(3);
    const client = createScriptedClient([NOT_DONE, NOT_DONE, DONE]);
    const decisions: StopDecision[] = [];
    const result = await generateText({
      model,
      tools: ws.tools,
      prompt: TASK,
      stopWhen: [
        hardCapStopWhen(10),
        policyStopWhen({ client, task: TASK, acceptance: ACCEPTANCE, readTests: ws.readTests, onDecision: (d) => void decisions.push(d) }),
      ],
    });
    expect(result.steps).toHaveLength(3);
    expect(model.doGenerateCalls).toHaveLength(3);
    expect(decisions.map(summary)).toEqual([
      [1, 'retry', 'tests_failed'],
      [2, 'retry', 'tests_failed'],
      [3, 'stop', 'tests_and_criteria_passed'],
    ]);
    expect(decisions[0]).toMatchObject({ kind: 'retry', feedback: { message: '1 test failed: paginate > last page. Fix it and run the tests again before you finish.' } });
    expect(decisions[2]).toMatchObject({ exit: 'success', values: { lowestProbability: 0.9, ran: 31 } });
    expect(client.calls).toHaveLength(3);
    expect(client.calls[2]?.state).toEqual({
      task: TASK,
      output: 'working on step 1\n\nworking on step 2\n\nworking on step 3',
      acceptance: ACCEPTANCE,
      tests: { passed: true, ran: 31, failed: [] },
    });
  });

  it('does not ask the decision model while no tests ran, in a real ToolLoopAgent', async () => {
    const ws = workspace(4, 2);
    const client = createScriptedClient([NOT_DONE, DONE]);
    const decisions: StopDecision[] = [];
    const agent = new ToolLoopAgent({
      model: toolLoopModel('edit'),
      tools: ws.tools,
      stopWhen: [hardCapStopWhen(10), policyStopWhen({ client, task: TASK, acceptance: ACCEPTANCE, readTests: ws.readTests, onDecision: (d) => void decisions.push(d) })],
    });
    const result = await agent.generate({ prompt: TASK });
    expect(result.steps).toHaveLength(4);
    expect(decisions.map(summary)).toEqual([
      [1, 'retry', 'no_tests_ran'],
      [2, 'retry', 'no_tests_ran'],
      [3, 'retry', 'tests_failed'],
      [4, 'stop', 'tests_and_criteria_passed'],
    ]);
    expect(client.calls).toHaveLength(2);
  });

  it('stops the loop with need_help when the tests fail while the decision model says done', async () => {
    const { result, decisions } = await runPolicyLoop(workspace(99), { client: createScriptedClient([DONE]) });
    expect(result.steps).toHaveLength(1);
    expect(decisions).toMatchObject([{ kind: 'stop', exit: 'need_help', rule: 'evidence_contradicts_model', values: { failed: ['paginate > last page'] } }]);
  });

  it('detects a stall per run, and one condition can serve two runs without mixing their windows', async () => {
    const repeating = () =>
      new MockLanguageModelV3({
        doGenerate: async (options) => toolCallResult('edit', { step: 0 }, `call-${options.prompt.length}`, 'Trying the same fix.'),
      });
    const ws = workspace(99);
    const decisions: StopDecision[] = [];
    const condition = policyStopWhen({
      client: createScriptedClient([NOT_DONE, NOT_DONE, NOT_DONE, NOT_DONE]),
      task: TASK,
      acceptance: ACCEPTANCE,
      readTests: ws.readTests,
      onDecision: (d) => void decisions.push(d),
    });
    const first = await generateText({ model: repeating(), tools: ws.tools, prompt: TASK, stopWhen: [hardCapStopWhen(10), condition] });
    expect(first.steps).toHaveLength(3);
    const second = await generateText({ model: repeating(), tools: ws.tools, prompt: TASK, stopWhen: [hardCapStopWhen(10), condition] });
    expect(second.steps).toHaveLength(3);
    expect(decisions.map(summary)).toEqual([
      [1, 'retry', 'tests_failed'],
      [2, 'retry', 'tests_failed'],
      [3, 'stop', 'stalled'],
      [1, 'retry', 'tests_failed'],
      [2, 'retry', 'tests_failed'],
      [3, 'stop', 'stalled'],
    ]);
    expect(decisions[2]).toMatchObject({ exit: 'need_help', values: { stallRounds: 3 } });
  });

  it('applies the step cap of the policy numbers first', async () => {
    const { result, decisions } = await runPolicyLoop(workspace(99), {
      client: createScriptedClient([NOT_DONE, NOT_DONE, NOT_DONE]),
      policy: { doneThreshold: 0.7, midBandLow: 0.4, maxSteps: 3, stallRounds: 3 },
    });
    expect(result.steps).toHaveLength(3);
    expect(decisions.map(summary)).toEqual([
      [1, 'retry', 'tests_failed'],
      [2, 'retry', 'tests_failed'],
      [3, 'stop', 'hard_cap'],
    ]);
    expect(decisions.at(-1)).toMatchObject({ exit: 'limit', values: { step: 3, maxSteps: 3 } });
  });

  it('judges what readOutput returns and asks the given questions', async () => {
    const client = createScriptedClient([{ diffTouchesOnlyPaginate: 0.95 }]);
    const { decisions } = await runPolicyLoop(workspace(1), {
      client,
      readOutput: (steps) => `diff after ${steps.length} steps`,
      questions: { diffTouchesOnlyPaginate: { type: 'boolean', instructions: 'Does the diff touch only paginate.ts?' } },
    });
    expect(client.calls[0]?.state).toMatchObject({ output: 'diff after 1 steps' });
    expect(Object.keys(client.calls[0]!.questions)).toEqual(['diffTouchesOnlyPaginate']);
    expect(decisions).toMatchObject([{ kind: 'stop', exit: 'success', values: { lowestCriterion: 'diffTouchesOnlyPaginate', lowestProbability: 0.95 } }]);
  });

  it('rejects the loop when the decision model fails; an error never stops it as done', async () => {
    const failure = new DecisionModelError('rate_limited', 'the decision model answered 429', { status: 429 });
    await expect(runPolicyLoop(workspace(1), { client: createScriptedClient([failure]) })).rejects.toBe(failure);
  });

  it('can only stop early: a retry does not make the model take another step after it ends its turn', async () => {
    const model = new MockLanguageModelV3({ doGenerate: [textResult('All fixed, I am done.')] });
    const decisions: StopDecision[] = [];
    const result = await generateText({
      model,
      tools: workspace(99).tools,
      prompt: TASK,
      stopWhen: policyStopWhen({ client: createScriptedClient([]), task: TASK, acceptance: ACCEPTANCE, readTests: () => PASS, onDecision: (d) => void decisions.push(d) }),
    });
    expect(result.steps).toHaveLength(1);
    expect(model.doGenerateCalls).toHaveLength(1);
    // The AI SDK asks a stop condition only after a step with tool calls.
    expect(decisions).toEqual([]);
  });

  it('fails fast on missing or malformed options', () => {
    const ws = workspace(1);
    const client = createScriptedClient([]);
    expect(() => policyStopWhen(undefined as never)).toThrow(/policyStopWhen needs options, got undefined/);
    expect(() => policyStopWhen({ task: TASK, acceptance: ACCEPTANCE, readTests: ws.readTests } as never)).toThrow(
      /policyStopWhen: the default policy \(the seed preset\) compares criterion probabilities, so it needs a decision model to ask: pass client/,
    );
    expect(() => policyStopWhen({ client: {} as never, task: TASK, acceptance: ACCEPTANCE, readTests: ws.readTests })).toThrow(/client must be an? DecisionModelClient/);
    expect(() => policyStopWhen({ client, acceptance: ACCEPTANCE, readTests: ws.readTests } as never)).toThrow(/policyStopWhen: the decision model judges the output against the task and the acceptance criteria/);
    expect(() => policyStopWhen({ client, task: TASK, acceptance: 'all of it', readTests: ws.readTests } as never)).toThrow(/pass task \(a string\) and acceptance \(an array of strings\)/);
    expect(() => policyStopWhen({ client, task: TASK, acceptance: ACCEPTANCE } as never)).toThrow(/policyStopWhen: the default policy decides on test evidence: pass readTests\(steps\)/);
    expect(() => policyStopWhen({ client, task: TASK, acceptance: ACCEPTANCE, readTests: 'npm test' } as never)).toThrow(/pass readTests\(steps\)/);
    expect(() => policyStopWhen({ client, task: TASK, acceptance: ACCEPTANCE, readTests: ws.readTests, policy: { doneThreshold: 2 } as never })).toThrow(/doneThreshold/);
  });
});

describe('policyStopWhen with a policy document', () => {
  it('runs without a decision model or a test reader when no rule needs them', async () => {
    const policy = parseStopPolicy({
      version: STOP_POLICY_VERSION,
      rules: [
        { id: 'cap', when: { limit: { of: 'steps', max: 9 } }, then: { kind: 'stop', exit: 'limit', reason: 'cap' } },
        { id: 'tokens', when: { limit: { of: 'totalTokens', max: 50 } }, then: { kind: 'stop', exit: 'limit', reason: 'tokens' } },
      ],
    });
    const decisions: StopDecision[] = [];
    const result = await generateText({
      model: toolLoopModel('edit'),
      tools: workspace(99).tools,
      prompt: TASK,
      stopWhen: policyStopWhen({ policy, onDecision: (d) => void decisions.push(d) }),
    });
    // The mock model reports 12 input and 6 output tokens a step: 54 >= 50 at step 3.
    expect(result.steps).toHaveLength(3);
    expect(decisions.map(summary)).toEqual([
      [1, 'continue', null],
      [2, 'continue', null],
      [3, 'stop', 'tokens'],
    ]);
    expect(decisions.at(-1)).toMatchObject({ kind: 'stop', exit: 'limit', values: { totalTokens: 54, maxTotalTokens: 50 } });
  });

  it('stops on the finish tool: a done with passing tests is a success, a done on red goes on', async () => {
    const policy = parseStopPolicy({
      version: STOP_POLICY_VERSION,
      rules: [
        { id: 'verified_done', when: { all: [{ signal: 'done' }, { tests: 'passed' }] }, then: { kind: 'stop', exit: 'success', reason: 'verified_done' } },
        { id: 'done_on_red', when: { signal: 'done' }, then: { kind: 'retry', reason: 'done_on_red' } },
      ],
    });
    let fixed = false;
    const tools = {
      edit: tool({ inputSchema: z.object({ step: z.number() }), execute: async () => ((fixed = true), 'edited') }),
      finish: tool({ ...aiSdkFinishTool, execute: async () => (fixed ? 'accepted' : 'the tests still fail') }),
    };
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolCallResult('finish', { kind: 'done', note: 'Fixed, I think.' }, 'c1'),
        toolCallResult('edit', { step: 2 }, 'c2'),
        toolCallResult('finish', { kind: 'done', note: 'Fixed the bound.' }, 'c3'),
        toolCallResult('edit', { step: 4 }, 'c4'),
      ],
    });
    const decisions: [StopDecision, StopEvent][] = [];
    const result = await generateText({
      model,
      tools,
      prompt: TASK,
      stopWhen: [hardCapStopWhen(10), policyStopWhen({ policy, readTests: () => (fixed ? PASS : { passed: false, failed: ['paginate > last page'], ran: 31 }), onDecision: (d, e) => void decisions.push([d, e]) })],
    });
    expect(result.steps).toHaveLength(3);
    expect(decisions.map(([d, e]) => [e.step, e.signal?.kind ?? null, d.kind, d.rule])).toEqual([
      [1, 'done', 'retry', 'done_on_red'],
      [2, null, 'continue', null],
      [3, 'done', 'stop', 'verified_done'],
    ]);
    expect(decisions[2]?.[1].signal).toEqual({ kind: 'done', note: 'Fixed the bound.' });
  });

  it('needs a decision model when a rule of the document compares criterion probabilities', () => {
    const readTests = () => PASS;
    expect(() => policyStopWhen({ policy: SEED_STOP_POLICY, readTests })).toThrow(
      /policyStopWhen: a rule of the policy compares criterion probabilities, so it needs a decision model to ask: pass client/,
    );
    expect(() => policyStopWhen({ policy: SEED_STOP_POLICY, client: createScriptedClient([]), readTests })).toThrow(/judges the output against the task and the acceptance criteria/);
    expect(() => policyStopWhen({ policy: { version: STOP_POLICY_VERSION, rules: [{ id: 'x', when: { nope: true }, then: { kind: 'stop', exit: 'limit', reason: 'x' } }] } as never })).toThrow();
  });
});
