import { generateText, ToolLoopAgent } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { DecisionModelError } from '../../../src/decision-model/decision-model-error.js';
import type { CompletionDecision } from '../../../src/integrations/ai-sdk/completion-loop.js';
import { hardCapStopWhen } from '../../../src/integrations/ai-sdk/hard-cap-stop-when.js';
import { policyStopWhen, type PolicyStopWhenOptions } from '../../../src/integrations/ai-sdk/policy-stop-when.js';
import { createScriptedClient } from '../../../src/testing/scripted-client.js';
import { parseStopPolicy, SEED_STOP_POLICY, type StopDecision } from '../../../src/index.js';
import { ACCEPTANCE, DONE, editWorkspace as workspace, NOT_DONE, TASK } from './fixtures.js';
import { toolCallResult, toolLoopModel } from './mock-model.js';

/** A real generateText loop of `edit` steps stopped by policyStopWhen alone; returns the result and every decision. */
async function runPolicyLoop(
  ws: ReturnType<typeof workspace>,
  options: Partial<PolicyStopWhenOptions<ReturnType<typeof workspace>['tools']>> & Pick<PolicyStopWhenOptions, 'client'>,
) {
  const decisions: CompletionDecision[] = [];
  const result = await generateText({
    model: toolLoopModel('edit'),
    tools: ws.tools,
    prompt: TASK,
    stopWhen: policyStopWhen({
      task: TASK,
      acceptance: ACCEPTANCE,
      readTests: ws.readTests,
      onDecision: (d) => void decisions.push(d),
      ...options,
    }),
  });
  return { result, decisions };
}

describe('policyStopWhen', () => {
  it('stops a real generateText loop when the tests pass and the decision model says done', async () => {
    const model = toolLoopModel('edit');
    const ws = workspace(3);
    const client = createScriptedClient([NOT_DONE, NOT_DONE, DONE]);
    const decisions: CompletionDecision[] = [];
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
    expect(decisions.map((d) => [d.action, d.reason, d.values.step])).toEqual([
      ['retry', 'tests_failed', 1],
      ['retry', 'tests_failed', 2],
      ['stop_done', 'tests_and_criteria_passed', 3],
    ]);
    expect(decisions[2]).toMatchObject({ evaluated: true, model: 'scripted', probabilities: DONE });
    expect(client.calls).toHaveLength(3);
    expect(client.calls[2]?.state).toEqual({
      task: TASK,
      output: 'working on step 1\n\nworking on step 2\n\nworking on step 3',
      acceptance: ACCEPTANCE,
      tests: { passed: true, ran: 31, failed: [] },
    });
  });

  it('does not ask the decision model while no tests ran, in a real ToolLoopAgent', async () => {
    const model = toolLoopModel('edit');
    const ws = workspace(4, 2);
    const client = createScriptedClient([NOT_DONE, DONE]);
    const decisions: CompletionDecision[] = [];
    const agent = new ToolLoopAgent({
      model,
      tools: ws.tools,
      stopWhen: [hardCapStopWhen(10), policyStopWhen({ client, task: TASK, acceptance: ACCEPTANCE, readTests: ws.readTests, onDecision: (d) => void decisions.push(d) })],
    });
    const result = await agent.generate({ prompt: TASK });
    expect(result.steps).toHaveLength(4);
    expect(decisions.map((d) => [d.reason, d.evaluated])).toEqual([
      ['no_tests_ran', false],
      ['no_tests_ran', false],
      ['tests_failed', true],
      ['tests_and_criteria_passed', true],
    ]);
    expect(client.calls).toHaveLength(2);
  });

  it('hands off with evidence_contradicts_model and stops the loop', async () => {
    const { result, decisions } = await runPolicyLoop(workspace(99), { client: createScriptedClient([DONE]) });
    expect(result.steps).toHaveLength(1);
    expect(decisions[0]).toMatchObject({ action: 'handoff_human', reason: 'evidence_contradicts_model', rule: 4 });
  });


  it('detects a stall per run, and one condition can serve two runs without mixing their windows', async () => {
    const repeating = () =>
      new MockLanguageModelV3({
        doGenerate: async (options) => toolCallResult('edit', { step: 0 }, `call-${options.prompt.length}`, 'Trying the same fix.'),
      });
    const ws = workspace(99);
    const decisions: CompletionDecision[] = [];
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
    expect(decisions.map((d) => [d.values.step, d.reason])).toEqual([
      [1, 'tests_failed'],
      [2, 'tests_failed'],
      [3, 'stalled'],
      [1, 'tests_failed'],
      [2, 'tests_failed'],
      [3, 'stalled'],
    ]);
  });

  it('applies the policy step cap as rule 1', async () => {
    const { result, decisions } = await runPolicyLoop(workspace(99), {
      client: createScriptedClient([NOT_DONE, NOT_DONE, NOT_DONE]),
      policy: { doneThreshold: 0.7, midBandLow: 0.4, maxSteps: 3, stallRounds: 3 },
    });
    expect(result.steps).toHaveLength(3);
    expect(decisions.at(-1)).toMatchObject({ action: 'handoff_human', reason: 'hard_cap', evaluated: false });
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
    expect(decisions).toMatchObject([{ action: 'stop_done', probabilities: { diffTouchesOnlyPaginate: 0.95 } }]);
  });


  it('rejects the loop when the decision model fails; an error never stops it as done', async () => {
    const failure = new DecisionModelError('rate_limited', 'the decision model answered 429', { status: 429 });
    await expect(runPolicyLoop(workspace(1), { client: createScriptedClient([failure]) })).rejects.toBe(failure);
  });


  it('fails fast on missing options', () => {
    const ws = workspace(1);
    expect(() => policyStopWhen({ client: {} as never, task: TASK, acceptance: ACCEPTANCE, readTests: ws.readTests })).toThrow(/client must be an DecisionModelClient/);
    expect(() => policyStopWhen({ client: createScriptedClient([]), task: TASK, acceptance: ACCEPTANCE } as never)).toThrow(/readTests/);
    expect(() =>
      policyStopWhen({ client: createScriptedClient([]), task: TASK, acceptance: ACCEPTANCE, readTests: ws.readTests, policy: { doneThreshold: 2 } as never }),
    ).toThrow(/policy.doneThreshold/);
  });

  it('reports the engine decision with each seed decision', async () => {
    const { decisions } = await runPolicyLoop(workspace(2), { client: createScriptedClient([NOT_DONE, DONE]) });
    expect(decisions.map((d) => [d.rule, d.decision?.rule, d.decision?.kind])).toEqual([
      [5, 'tests_failed', 'retry'],
      [6, 'tests_and_criteria_passed', 'stop'],
    ]);
  });

  it('runs a policy document without a decision model or a test reader when no rule needs them', async () => {
    const policy = parseStopPolicy({
      version: 1,
      rules: [
        { id: 'cap', when: { limit: { of: 'steps', max: 9 } }, then: { kind: 'stop', exit: 'limit', reason: 'cap' } },
        { id: 'tokens', when: { limit: { of: 'totalTokens', max: 50 } }, then: { kind: 'stop', exit: 'limit', reason: 'tokens' } },
      ],
    });
    const ws = workspace(99);
    const decisions: StopDecision[] = [];
    const result = await generateText({
      model: toolLoopModel('edit'),
      tools: ws.tools,
      prompt: TASK,
      stopWhen: policyStopWhen({ policy, onDecision: (d) => void decisions.push(d) }),
    });
    // The mock model reports 12 input and 6 output tokens a step: 54 >= 50 at step 3.
    expect(result.steps).toHaveLength(3);
    expect(decisions.at(-1)).toMatchObject({ kind: 'stop', exit: 'limit', rule: 'tokens', evaluated: false, values: { totalTokens: 54, maxTotalTokens: 50 } });
    expect(() => policyStopWhen({ policy: SEED_STOP_POLICY, readTests: ws.readTests })).toThrow(/client must be an DecisionModelClient/);
    expect(() => policyStopWhen({ policy: SEED_STOP_POLICY, client: createScriptedClient([]), readTests: ws.readTests })).toThrow(/needs the task and the acceptance/);
  });
});
