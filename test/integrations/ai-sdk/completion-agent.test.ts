import { tool, ToolLoopAgent } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_AGENT_STEPS } from '../../../src/core/stop-policy.js';
import { createCompletionAgent } from '../../../src/integrations/ai-sdk/completion-agent.js';
import { promptText, toolLoopModel } from './mock-model.js';

function counterTools() {
  const state = { edits: 0 };
  const tools = {
    edit: tool({
      description: 'Edit a file',
      inputSchema: z.object({ step: z.number() }),
      execute: async () => {
        state.edits += 1;
        return `edit ${state.edits} applied`;
      },
    }),
  };
  return { state, tools };
}

describe('createCompletionAgent', () => {
  it('is a real ToolLoopAgent that stops when checkDone says done', async () => {
    const model = toolLoopModel('edit');
    const { state, tools } = counterTools();
    const lengths: number[] = [];
    const agent = createCompletionAgent({
      model,
      tools,
      instructions: 'You fix bugs. Run the tests.',
      checkDone: (steps) => {
        lengths.push(steps.length);
        return state.edits >= 3;
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

  it('stops at maxSteps when checkDone never says done', async () => {
    const model = toolLoopModel('edit');
    const { tools } = counterTools();
    const agent = createCompletionAgent({ model, tools, checkDone: async () => false, maxSteps: 4 });
    expect((await agent.generate({ prompt: 'Fix paginate' })).steps).toHaveLength(4);
    expect(model.doGenerateCalls).toHaveLength(4);
  });

  it('caps at MAX_AGENT_STEPS by default', async () => {
    const model = toolLoopModel('edit');
    const agent = createCompletionAgent({ model, tools: counterTools().tools, checkDone: () => false });
    expect((await agent.generate({ prompt: 'Fix paginate' })).steps).toHaveLength(MAX_AGENT_STEPS);
  });

  it('fails fast on a bad cap', () => {
    expect(() =>
      createCompletionAgent({ model: toolLoopModel('edit'), tools: counterTools().tools, checkDone: () => true, maxSteps: 0 }),
    ).toThrow(/maxSteps must be a positive integer/);
  });
});
