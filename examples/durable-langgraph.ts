// Durable stop state with LangGraph and PostgreSQL: the stop engine's state lives in checkpointed channels, so a
// thread whose process dies resumes with its step count, spend, stall window and retries where they were.
//
// Needs a PostgreSQL server you can create tables in:
//   DATABASE_URL=postgresql://USER@127.0.0.1:5432/DB npx tsx examples/durable-langgraph.ts [THREAD] [--crash-at N]
// With --crash-at N the process kills itself (SIGKILL) as turn N starts; run it again with the same THREAD to resume.
// The agent, the test runner and the decision model are scripted, so the run is the same every time.
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import { checkCompletion, describeDecision, initialStopState, needsJudgement, parseStopPolicy, type StopEvent, type StopState, type TestEvidence } from 'stopwise';
import { decideStop, routeDecision, STOP_ROUTES, StopEngineAnnotation } from 'stopwise/langgraph';
import { createScriptedClient } from 'stopwise/testing';

const url = process.env.DATABASE_URL;
if (url === undefined || url === '') {
  console.error('Set DATABASE_URL to a PostgreSQL connection string, e.g. postgresql://postgres@127.0.0.1:5432/postgres');
  process.exit(2);
}
let thread = 'paginate-fix';
let crashAt: number | undefined;
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--crash-at') crashAt = Number(args[++i]);
  else thread = args[i]!;
}

// A policy is a JSON document: it could as well be read from a file with parseStopPolicy(JSON.parse(text)).
const policy = parseStopPolicy({
  version: 2,
  name: 'durable-example',
  rules: [
    { id: 'budget', when: { limit: { of: 'cost', max: 1.5 } }, then: { kind: 'stop', exit: 'limit', reason: 'budget' } },
    { id: 'max_steps', when: { limit: { of: 'steps', max: 12 } }, then: { kind: 'stop', exit: 'limit', reason: 'max_steps' } },
    { id: 'stalled', when: { stall: { detector: 'identical_fingerprints', rounds: 3 } }, then: { kind: 'stop', exit: 'need_help', reason: 'stalled' } },
    { id: 'no_tests_ran', when: { tests: 'no_tests_ran' }, then: { kind: 'retry', reason: 'no_tests_ran' } },
    { id: 'tests_failed', when: { tests: 'failed' }, then: { kind: 'retry', reason: 'tests_failed' } },
    { id: 'done', when: { criteria: { gte: 0.8 } }, then: { kind: 'stop', exit: 'success', reason: 'tests_and_criteria_passed' } },
    { id: 'not_yet', when: { always: true }, then: { kind: 'retry', reason: 'criteria_unmet' } },
  ],
});

const task = 'Fix paginate() so that the last partial page is returned.';
const acceptance = ['the last partial page is returned'];
const failing: TestEvidence = { passed: false, failed: ['paginate > last page'], ran: 31 };
const passing: TestEvidence = { passed: true, failed: [], ran: 31 };
const script: { output: string; tests: TestEvidence; answers?: Record<string, number> }[] = [
  { output: 'Reading paginate.ts.', tests: { passed: false, failed: [], ran: 0 } },
  { output: 'Ran the suite: the last page is missing.', tests: failing },
  { output: 'Changed the bound to i <= pages.', tests: failing },
  { output: 'Changed the bound to i < pages.', tests: passing, answers: { acceptanceCovered: 0.55, noOpenQuestions: 0.9 } },
  { output: 'Changed the bound to i < pages; the last partial page is returned, with a test.', tests: passing, answers: { acceptanceCovered: 0.93, noOpenQuestions: 0.9 } },
];

const State = Annotation.Root({ ...StopEngineAnnotation.spec, outcome: Annotation<string>({ reducer: (_, next) => next, default: () => '' }) });

const exit = (outcome: string) => () => ({ outcome });
// What the run has spent so far: the model's turns and the decision model's calls together.
const spent = ({ totals }: StopState) => Number((totals.cost + totals.decisionModelCost).toFixed(4));
const checkpointer = PostgresSaver.fromConnString(url);
await checkpointer.setup();
const graph = new StateGraph(State)
  // The turn does everything that is not pure: the model call, the tools, the test run, the decision model. Its
  // event lands in a checkpoint before the decision, so a crash after it does not run any of them again.
  .addNode('turn', async (state) => {
    const step = (state.stopState?.step ?? 0) + 1; // one after the last step decided
    if (step === crashAt) process.kill(process.pid, 'SIGKILL');
    const turn = script[Math.min(step, script.length) - 1]!;
    let event: StopEvent = { step, output: turn.output, tests: turn.tests, usage: { inputTokens: 2400, outputTokens: 600, cost: 0.12 } };
    // Ask the decision model only when the rules need it (here: once the tests pass).
    if (needsJudgement(policy, state.stopState ?? initialStopState(policy), event)) {
      const check = await checkCompletion(createScriptedClient([turn.answers!]), { task, output: turn.output, acceptance, tests: turn.tests });
      event = { ...event, probabilities: check.probabilities, usage: { ...event.usage, decisionModelCalls: 1, decisionModelCost: 0.002 } };
    }
    return { stopEvent: event };
  })
  // The decision is pure: on a resume it is made again from the checkpointed state and event, with the same result.
  .addNode('stop', (state) => {
    const update = decideStop(policy, state);
    const { totals, retries } = update.stopState;
    console.log(describeDecision(update.stopDecision));
    console.log(`  so far: cost ${spent(update.stopState)}, decision model calls ${totals.decisionModelCalls}, retries in a row ${retries}`);
    return update;
  })
  .addNode('success', exit('success'))
  .addNode('limit', exit('limit'))
  .addNode('give_up', exit('gave_up'))
  .addNode('human', exit('need_help'))
  .addNode('failed', exit('failed'))
  .addEdge(START, 'turn')
  .addEdge('turn', 'stop')
  .addConditionalEdges('stop', routeDecision, [...STOP_ROUTES])
  .addEdge('success', END)
  .addEdge('limit', END)
  .addEdge('give_up', END)
  .addEdge('human', END)
  .addEdge('failed', END)
  .compile({ checkpointer });

// durability 'sync': each super-step is in the database before the next one starts.
const config = { configurable: { thread_id: thread }, durability: 'sync' as const, recursionLimit: 100 };
const saved = await graph.getState(config);
if (saved.values.outcome !== undefined && saved.values.outcome !== '') {
  console.log(`thread ${thread} already ended: ${saved.values.outcome}`);
} else {
  const stopState = saved.values.stopState;
  if (stopState === null || stopState === undefined) {
    console.log(`thread ${thread}: starting`);
  } else {
    console.log(`thread ${thread}: resuming after step ${stopState.step} (cost ${spent(stopState)}, retries in a row ${stopState.retries})`);
  }
  const final = await graph.invoke(saved.next.length > 0 ? null : {}, config);
  console.log(`ended: ${final.outcome} after ${final.stopState?.step} steps`);
}
await checkpointer.end();
