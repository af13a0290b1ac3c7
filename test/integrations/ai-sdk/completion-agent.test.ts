import { ToolLoopAgent } from 'ai';
import { describe, expect, it } from 'vitest';
import { MAX_AGENT_STEPS } from '../../../src/core/stop-policy.js';
import { checkCompletion } from '../../../src/decision-model/check-completion.js';
import { createCompletionAgent } from '../../../src/integrations/ai-sdk/completion-agent.js';
import { createScriptedClient } from '../../../src/testing/scripted-client.js';
import { ACCEPTANCE, editWorkspace, TASK } from './fixtures.js';
import { promptText, toolLoopModel } from './mock-model.js';

describe('createCompletionAgent', () => {
  it('is a real ToolLoopAgent that stops when checkDone says done', async () => {
    const model = toolLoopModel('edit');
    const { tools, edits } = editWorkspace(99);
    const lengths: number[] = [];
    const agent = createCompletionAgent({
      model,
      tools,
      instructions: 'You fix bugs. Run the tests.',
      checkDone: (steps) => {
        lengths.push(steps.length);
        return edits() >= 3;
      },
    });
    expect(agent).toBeInstanceOf(ToolLoopAgent);
    const result = await agent.generate({ prompt: 'Fix paginate' });
    expect(result.steps).toHaveLength(3);
    expect(lengths).toEqual([1, 2, 3]);
    const first = model.doGenerateCalls[0];
    expect(first?.prompt[0]).toEqual({ role: 'system', content: 'You fix bugs. Run the tests.' });
    expect(promptText(model.doGenerateCalls[2]!)).toContain('tool: result edit {"type":"text","value":"edit 2 applied"}');
  });

  it('stops when the tests pass and the scripted decision model says done', async () => {
    const model = toolLoopModel('edit');
    const ws = editWorkspace(2);
    const decisionModel = createScriptedClient([
      { acceptanceCovered: 0.3, noOpenQuestions: 0.9 },
      { acceptanceCovered: 0.5, noOpenQuestions: 0.9 },
      { acceptanceCovered: 0.94, noOpenQuestions: 0.9 },
    ]);
    const checks: string[] = [];
    const agent = createCompletionAgent({
      model,
      tools: ws.tools,
      checkDone: async (steps) => {
        const check = await checkCompletion(decisionModel, { task: TASK, output: steps.at(-1)?.text ?? '', acceptance: ACCEPTANCE, tests: ws.readTests() });
        checks.push(check.reason);
        return check.done;
      },
    });
    const result = await agent.generate({ prompt: TASK });
    expect(result.steps).toHaveLength(3);
    expect(checks).toEqual(['tests_failed', 'criteria_below_threshold', 'tests_and_criteria_passed']);
    expect(decisionModel.calls).toHaveLength(3);
    expect(decisionModel.calls[2]?.state).toMatchObject({ output: 'working on step 3', tests: { passed: true, ran: 31, failed: [] } });
  });

  it('stops at maxSteps when checkDone never says done', async () => {
    const model = toolLoopModel('edit');
    const agent = createCompletionAgent({ model, tools: editWorkspace(99).tools, checkDone: async () => false, maxSteps: 4 });
    expect((await agent.generate({ prompt: 'Fix paginate' })).steps).toHaveLength(4);
    expect(model.doGenerateCalls).toHaveLength(4);
  });

  it('caps at MAX_AGENT_STEPS by default', async () => {
    const model = toolLoopModel('edit');
    const agent = createCompletionAgent({ model, tools: editWorkspace(99).tools, checkDone: () => false });
    expect((await agent.generate({ prompt: 'Fix paginate' })).steps).toHaveLength(MAX_AGENT_STEPS);
  });

  it('fails fast on a bad cap', () => {
    expect(() =>
      createCompletionAgent({ model: toolLoopModel('edit'), tools: editWorkspace(99).tools, checkDone: () => true, maxSteps: 0 }),
    ).toThrow(/maxSteps must be a positive integer/);
  });
});
