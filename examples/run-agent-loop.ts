import { anthropicFinishTool, formatCost, parseFinishSignal, runAgentLoop, stopReasonOf, type TurnState } from 'stopwise';

const PRICE_PER_MILLION = { input: 3, output: 15 }; // your model's prices, in dollars

const outcome = await runAgentLoop({
  limits: { maxSteps: 25, maxWallClockMs: 600_000, maxCost: 2 }, // the names of checkBudget
  turn: async (state, { signal }) => {
    // state: { step, usage, remaining, wrapUp, unmet, humanAnswer?, unanswered?, lastText }
    const reply = await callYourModel(state, { signal, tools: state.wrapUp ? [] : [anthropicFinishTool] });
    const finish = reply.finishCall === undefined ? undefined : parseFinishSignal(reply.finishCall.input);
    if (finish !== undefined && !finish.ok) throw new Error(finish.error.message);
    const cost = (reply.inputTokens * PRICE_PER_MILLION.input + reply.outputTokens * PRICE_PER_MILLION.output) / 1e6;
    const usage = { inputTokens: reply.inputTokens, outputTokens: reply.outputTokens, cost }; // maxCost reads cost
    return finish === undefined ? { text: reply.text, usage } : { signal: finish.signal, text: reply.text, usage };
  },
  verify: async () => ((await runTests()).passed ? { ok: true } : { ok: false, unmet: ['the test suite passes'] }),
});
console.log(stopReasonOf(outcome), outcome.steps, formatCost(outcome.usage.cost)); // limit:cost 14 2.0118

// Stand-ins, so that this file runs offline: a model whose context grows by 1,000 tokens a turn
// and that claims done on turn 5, and a test suite that keeps failing.
async function callYourModel(state: TurnState, _options: { signal: AbortSignal; tools: readonly unknown[] }) {
  const finishCall = state.step === 5 ? { input: { kind: 'done', note: 'Fixed the pagination bound.' } } : undefined;
  return { text: `turn ${state.step}`, inputTokens: 35_000 + 1_000 * state.step, outputTokens: 1_080, finishCall };
}
async function runTests() {
  return { passed: false };
}
