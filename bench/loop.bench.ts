// runAgentLoop's own cost per turn (budget check, wrap-up projection, signal
// validation, trace record) against a hand-written loop that only counts
// steps, the memory a long run's trace keeps, and the finish-input and
// stop-reason parsers per call.
import { checkBudget, runAgentLoop, type StopOutcome, type TurnResult } from '../src/index.js';
import { addUsage, emptyUsage } from '../src/core/budget.js';
import { parseFinishSignal } from '../src/providers/parse-finish-signal.js';
import { mapAnthropicStopReason } from '../src/providers/index.js';
import { formatBytes, heapRetained, measure, printTable } from './harness.js';

const TURNS = 1_000;
const working: TurnResult = { text: 'ran the tests: 3 failing', usage: { inputTokens: 1_200, outputTokens: 150, cost: 0.004 } };

async function stopwiseRun(turns: number): Promise<StopOutcome> {
  return runAgentLoop({ limits: { maxSteps: turns, maxCost: 1e9 }, turn: () => working, verify: () => ({ ok: true }) });
}

/** The baseline: the same turns in a bare loop with a step counter, usage sum and the same budget check. */
async function baselineRun(turns: number): Promise<number> {
  let usage = emptyUsage();
  for (;;) {
    if (!checkBudget({ maxSteps: turns, maxCost: 1e9 }, usage).ok) return usage.steps;
    const result = await Promise.resolve(working);
    usage = addUsage(usage, result.usage);
  }
}

export default async function run(): Promise<void> {
  const loops = await measure({ baseline: () => baselineRun(TURNS), stopwise: () => stopwiseRun(TURNS) }, { timeMs: 1_500 });
  const b = loops.baseline!;
  const s = loops.stopwise!;
  printTable(
    `loop: time per turn over a ${TURNS.toLocaleString('en')}-turn run (turn returns at once)`,
    ['loop', 'per turn', 'whole run'],
    [
      ['baseline (bare loop + checkBudget)', `${(b.meanUs / TURNS).toFixed(3)} us`, `${(b.meanUs / 1000).toFixed(2)} ms`],
      ['runAgentLoop', `${(s.meanUs / TURNS).toFixed(3)} us`, `${(s.meanUs / 1000).toFixed(2)} ms`],
    ],
  );
  console.log(`overhead: ${((s.meanUs - b.meanUs) / TURNS).toFixed(3)} us per turn`);

  const turns = 10_000;
  const outcome = await stopwiseRun(turns);
  const json = JSON.stringify(outcome);
  // The outcome is rebuilt from its JSON inside the measured callback, so the heap delta is the outcome alone.
  const retained = heapRetained(() => JSON.parse(json) as StopOutcome);
  printTable(
    `loop: heap kept by the outcome of a ${turns.toLocaleString('en')}-turn run (after a forced GC)`,
    ['trace records', 'retained', 'per record'],
    [[String(retained.kept.trace.length), formatBytes(retained.bytes), `${Math.round(retained.bytes / retained.kept.trace.length)} B`]],
  );

  const valid = { kind: 'give_up', note: 'the invoice portal answers 503 (offline for maintenance)' };
  const invalid = { kind: 'give_up', note: '' };
  const toolUse = { stop_reason: 'tool_use', content: [{ type: 'text' }, { type: 'tool_use', id: 'toolu_1', name: 'finish', input: valid }] };
  const endTurn = { stop_reason: 'end_turn', content: [{ type: 'text' }] };
  const parsers = await measure({
    'parseFinishSignal (valid)': () => parseFinishSignal(valid),
    'parseFinishSignal (invalid, message built)': () => parseFinishSignal(invalid),
    'mapAnthropicStopReason (finish tool_use)': () => mapAnthropicStopReason(toolUse),
    'mapAnthropicStopReason (end_turn)': () => mapAnthropicStopReason(endTurn),
  });
  printTable(
    'loop: parsers per call',
    ['case', 'calls/s', 'mean'],
    Object.entries(parsers).map(([name, r]) => [name, Math.round(r.opsPerSecond).toLocaleString('en'), `${r.meanUs.toFixed(3)} us`]),
  );
}
