// The stop engine in a LangGraph graph, offline: each turn decides with a policy document (here the seed preset),
// the engine's state is a checkpointed channel, and the route is a projection of the decision.
// Run: npx tsx examples/langgraph-engine.ts
import { Annotation, END, MemorySaver, START, StateGraph } from '@langchain/langgraph';
import { describeDecision, SEED_STOP_POLICY, type StopEvent } from 'stopwise';
import { decideStop, routeDecision, STOP_ROUTES, StopEngineAnnotation } from 'stopwise/langgraph';

// What the agent's turns produce: in a real graph, a model call, tools, a test run and the decision model's answer.
const turns: Omit<StopEvent, 'step'>[] = [
  { output: 'Read the token code.', tests: { passed: false, failed: ['auth > rejects expired token'], ran: 12 }, probabilities: { acceptanceCovered: 0.3 } },
  { output: 'Compared expiry in seconds.', tests: { passed: true, failed: [], ran: 12 }, probabilities: { acceptanceCovered: 0.6 } },
  { output: 'Compared expiry in seconds, with a test.', tests: { passed: true, failed: [], ran: 13 }, probabilities: { acceptanceCovered: 0.93 } },
];

const State = Annotation.Root({
  ...StopEngineAnnotation.spec,
  prompt: Annotation<string>({ reducer: (_, next) => next, default: () => 'Fix the expired-token check.' }),
  outcome: Annotation<string>({ reducer: (_, next) => next, default: () => '' }),
});

const exit = (outcome: string) => () => ({ outcome });
const graph = new StateGraph(State)
  .addNode('turn', (state) => {
    const step = (state.stopState?.step ?? 0) + 1; // one after the last step decided
    const update = decideStop(SEED_STOP_POLICY, state, { step, ...turns[step - 1] });
    console.log(describeDecision(update.stopDecision));
    if (update.stopDecision.kind !== 'retry') return update;
    // A retry carries feedback for the agent: it becomes the next turn's prompt.
    return { ...update, prompt: update.stopDecision.feedback.message };
  })
  .addNode('success', exit('success'))
  .addNode('limit', exit('limit'))
  .addNode('give_up', exit('gave_up'))
  .addNode('human', exit('need_help'))
  .addNode('failed', exit('failed'))
  .addEdge(START, 'turn')
  .addConditionalEdges('turn', routeDecision, [...STOP_ROUTES])
  .addEdge('success', END)
  .addEdge('limit', END)
  .addEdge('give_up', END)
  .addEdge('human', END)
  .addEdge('failed', END)
  .compile({ checkpointer: new MemorySaver() });

const config = { configurable: { thread_id: 'expired-token' } };
const final = await graph.invoke({}, config);
const saved = (await graph.getState(config)).values.stopState;
console.log(`ended: ${final.outcome} at step ${final.stopState?.step}; the checkpoint holds the engine state of step ${saved?.step}`);
