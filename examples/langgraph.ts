// routeStop in a LangGraph graph, offline: a fake chat model plays the agent, a scripted decision model checks its
// "done". Run: npx tsx examples/langgraph.ts
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import { checkCompletion, type TestEvidence } from 'stopwise';
import { routeStop, STOP_ROUTES, type RouteStopState } from 'stopwise/langgraph';
import { parseFinishSignal } from 'stopwise/providers';
import { createScriptedClient } from 'stopwise/testing';

const task = 'Fix paginate() so that the last partial page is returned.';
const acceptance = ['the last partial page is returned'];

// The fields routeStop reads, as channels, and the example's own.
const replace = <T>(_: T, next: T): T => next;
const State = Annotation.Root({
  steps: Annotation<number>({ reducer: replace, default: () => 0 }),
  maxSteps: Annotation<number>({ reducer: replace, default: () => 10 }),
  signal: Annotation<RouteStopState['signal']>({ reducer: replace, default: () => undefined }),
  verified: Annotation<boolean>({ reducer: replace, default: () => false }),
  signalStep: Annotation<number | null>({ reducer: replace, default: () => null }),
  note: Annotation<string>({ reducer: replace, default: () => '' }),
  trail: Annotation<string[]>({ reducer: (left, right) => left.concat(right), default: () => [] }),
  outcome: Annotation<string>({ reducer: replace, default: () => '' }),
});

/** The agent's turn: its reply is either work (tool calls, no signal) or a `finish` call `{ kind, note }`. */
function readReply(text: string) {
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch {
    return { signal: undefined, note: text };
  }
  const parsed = parseFinishSignal(input);
  if (!parsed.ok) throw new Error(`malformed finish call: ${parsed.error.message}`);
  return { signal: parsed.signal.kind, note: parsed.signal.note };
}

function buildGraph(replies: string[], testsAfterTurn: (turn: number) => TestEvidence, decisionModel: ReturnType<typeof createScriptedClient>) {
  const agent = new FakeListChatModel({ responses: replies });
  const exit = (outcome: string) => () => ({ outcome });
  return new StateGraph(State)
    .addNode('turn', async (state) => {
      const reply = await agent.invoke([['user', task]]);
      const { signal, note } = readReply(String(reply.content));
      const steps = state.steps + 1;
      // A turn that only worked sets no signal. LangGraph keeps the last one it was given, so a turn
      // that does set one stamps it with its step (signalStep): routeStop ignores an older signal.
      if (signal === undefined) return { steps, note, trail: ['tools'] };
      let verified = false;
      let why = '';
      if (signal === 'done') {
        // A "done" counts only when code verifies it: the tests pass and the decision model agrees.
        const check = await checkCompletion(decisionModel, { task, output: note, acceptance, tests: testsAfterTurn(steps) });
        verified = check.done;
        why = verified ? ' (verified)' : ` (not verified: ${check.reason})`;
      }
      return { steps, signal, verified, signalStep: steps, note, trail: [`${signal}${why}`] };
    })
    .addNode('success', exit('success'))
    .addNode('limit', exit('limit'))
    .addNode('give_up', exit('gave_up'))
    .addNode('human', exit('need_help'))
    .addNode('failed', exit('failed')) // routeStop's rules never fail a run; STOP_ROUTES names the node all the same
    .addEdge(START, 'turn')
    .addConditionalEdges('turn', routeStop, [...STOP_ROUTES])
    .addEdge('success', END)
    .addEdge('limit', END)
    .addEdge('give_up', END)
    .addEdge('human', END)
    .addEdge('failed', END)
    .compile();
}

const failing: TestEvidence = { passed: false, failed: ['paginate > last page'], ran: 31 };
const passing: TestEvidence = { passed: true, failed: [], ran: 31 };
const finish = (kind: string, note: string) => JSON.stringify({ kind, note });

const scenarios: { name: string; maxSteps: number; replies: string[]; tests: (turn: number) => TestEvidence; answers: Record<string, number>[] }[] = [
  {
    name: 'success',
    maxSteps: 10,
    replies: [
      'Reading paginate.ts.',
      finish('done', 'Changed the bound.'),
      'Fixing the off-by-one the failing test shows.',
      finish('done', 'Changed the bound to i < pages; the last partial page is returned.'),
    ],
    tests: (turn) => (turn >= 3 ? passing : failing),
    answers: [
      { acceptanceCovered: 0.9, noOpenQuestions: 0.9 },
      { acceptanceCovered: 0.92, noOpenQuestions: 0.9 },
    ],
  },
  { name: 'limit', maxSteps: 3, replies: ['Still reading.'], tests: () => failing, answers: [] },
  {
    name: 'give_up',
    maxSteps: 10,
    replies: [finish('give_up', 'The fixture database is not reachable from this sandbox; I tried the two documented hosts.')],
    tests: () => failing,
    answers: [],
  },
  {
    name: 'human',
    maxSteps: 10,
    replies: [finish('need_help', 'Should page 0 return 404 or an empty page?')],
    tests: () => failing,
    answers: [],
  },
];

for (const scenario of scenarios) {
  const decisionModel = createScriptedClient(scenario.answers);
  const final = await buildGraph(scenario.replies, scenario.tests, decisionModel).invoke({ maxSteps: scenario.maxSteps });
  console.log(`${scenario.name}: ended as ${final.outcome} after ${final.steps} turns: ${final.trail.join(' -> ')}`);
  if (final.outcome === 'gave_up' || final.outcome === 'need_help') console.log(`  the agent said: ${final.note}`);
}
