import { runAgentLoop, SEED_STOP_POLICY, stopReasonOf, type TurnState } from 'stopwise';
import { createScriptedClient } from 'stopwise/testing';

const task = 'Fix paginate() so that the last partial page is returned.';
const acceptance = ['the last partial page is returned', 'an empty list gives no pages'];
// The decision model that judges each turn against the acceptance criteria: scripted here, so that this file runs
// offline; createConfiguredClient() makes one that calls a model.
const client = createScriptedClient([
  { acceptanceCovered: 0.3, noOpenQuestions: 0.9 },
  { acceptanceCovered: 0.55, noOpenQuestions: 0.9 },
  { acceptanceCovered: 0.93, noOpenQuestions: 0.9 },
]);

const outcome = await runAgentLoop({
  policy: SEED_STOP_POLICY, // the step cap, a stall, the test evidence, then the decision model's judgement
  client, // asked about a turn only when the decision depends on its judgement
  task,
  acceptance,
  turn: async (state) => {
    // After a retry, state.feedback says what is not done yet: hand it to the model.
    const reply = await callYourModel(state.feedback?.message ?? task, state);
    return { text: reply.text, usage: reply.usage, tests: await runTests(state) };
  },
});
console.log(stopReasonOf(outcome), outcome.steps, outcome.decision?.rule, client.calls.length); // success 3 tests_and_criteria_passed 3

// Stand-ins, so that this file runs offline: a model that fixes the bound on its second turn and checks the
// acceptance criteria on its third, and a test suite that passes once the bound is fixed.
async function callYourModel(_prompt: string, state: TurnState) {
  const replies = ['Changed the loop bound to i <= pages.', 'Changed the loop bound to i < pages.', 'Checked both criteria: the last partial page is returned, an empty list gives no pages.'];
  return { text: replies[state.step - 1] ?? 'Nothing left to do.', usage: { inputTokens: 3_000 + 500 * state.step, outputTokens: 400 } };
}
async function runTests(state: TurnState) {
  return state.step >= 2 ? { passed: true, failed: [], ran: 31 } : { passed: false, failed: ['paginate > last page'], ran: 31 };
}
