import { generateText, ToolLoopAgent, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_AGENT_STEPS } from '../../../src/core/stop-policy.js';
import { hardCapStopWhen } from '../../../src/integrations/ai-sdk/hard-cap-stop-when.js';
import { toolLoopModel } from './mock-model.js';

function editTool(executed: number[]) {
  return tool({
    description: 'Edit a file',
    inputSchema: z.object({ step: z.number() }),
    execute: async ({ step }) => {
      executed.push(step);
      return `edited at step ${step}`;
    },
  });
}

describe('hardCapStopWhen', () => {
  it('stops a real generateText tool loop at the cap', async () => {
    const model = toolLoopModel('edit');
    const executed: number[] = [];
    const result = await generateText({
      model,
      tools: { edit: editTool(executed) },
      prompt: 'Fix the bug',
      stopWhen: hardCapStopWhen(4),
    });
    expect(result.steps).toHaveLength(4);
    expect(model.doGenerateCalls).toHaveLength(4);
    expect(executed).toEqual([1, 2, 3, 4]);
  });

  it('stops a real ToolLoopAgent at the cap, and defaults to MAX_AGENT_STEPS', async () => {
    const capped = toolLoopModel('edit');
    const agent = new ToolLoopAgent({ model: capped, tools: { edit: editTool([]) }, stopWhen: hardCapStopWhen(3) });
    expect((await agent.generate({ prompt: 'Fix the bug' })).steps).toHaveLength(3);
    expect(capped.doGenerateCalls).toHaveLength(3);

    const uncapped = toolLoopModel('edit');
    const byDefault = new ToolLoopAgent({ model: uncapped, tools: { edit: editTool([]) }, stopWhen: hardCapStopWhen() });
    expect((await byDefault.generate({ prompt: 'Fix the bug' })).steps).toHaveLength(MAX_AGENT_STEPS);
    expect(uncapped.doGenerateCalls).toHaveLength(MAX_AGENT_STEPS);
  });

  it('is true from the cap on, false below it', () => {
    const condition = hardCapStopWhen(2);
    const steps = (n: number) => ({ steps: Array.from({ length: n }) as never[] });
    expect([0, 1, 2, 3].map((n) => condition(steps(n)))).toEqual([false, false, true, true]);
  });

  it('rejects a cap that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '3', null]) {
      expect(() => hardCapStopWhen(bad as number)).toThrow(/maxSteps must be a positive integer/);
    }
  });
});
