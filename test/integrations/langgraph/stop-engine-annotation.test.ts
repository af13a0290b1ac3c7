import { END, MemorySaver, START, StateGraph } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { StopEngineAnnotation } from '../../../src/integrations/langgraph/stop-engine-annotation.js';

describe('StopEngineAnnotation', () => {
  it('declares the three channels, null before the first turn, each update replacing the value', async () => {
    const seen: unknown[] = [];
    const graph = new StateGraph(StopEngineAnnotation)
      .addNode('look', (state) => {
        seen.push({ ...state });
        return { stopEvent: { step: 1 } };
      })
      .addNode('again', () => ({ stopEvent: { step: 2 } }))
      .addEdge(START, 'look')
      .addEdge('look', 'again')
      .addEdge('again', END)
      .compile();
    expect(await graph.invoke({})).toEqual({ stopEvent: { step: 2 }, stopState: null, stopDecision: null });
    expect(seen).toEqual([{ stopEvent: null, stopState: null, stopDecision: null }]);
  });

  it('keeps its channels in the checkpoint, so a resumed thread reads them back', async () => {
    const checkpointer = new MemorySaver();
    const graph = new StateGraph(StopEngineAnnotation)
      .addNode('turn', () => ({ stopEvent: { step: 1, output: 'edited parser.ts' } }))
      .addEdge(START, 'turn')
      .addEdge('turn', END)
      .compile({ checkpointer });
    const config = { configurable: { thread_id: 'channels' } };
    await graph.invoke({}, config);
    const saved = await checkpointer.getTuple(config);
    expect(saved?.checkpoint.channel_values).toMatchObject({ stopEvent: { step: 1, output: 'edited parser.ts' } });
  });
});
