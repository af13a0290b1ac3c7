// The decision core per agent step: fingerprint + stall check + decision, against
// a straightforward baseline that keeps the JSON text of every step.
import { decideCompletionAction, fingerprintProgress, type AgentLoopState, type TestEvidence } from '../src/index.js';
import { appendFingerprint } from '../src/core/stall.js';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { formatBytes, heapRetained, measure, printTable } from './harness.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Median wall time, in ms, of a fresh Node process running `script` (ESM) from the project root, over `runs` runs. */
function processMs(script: string, runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const began = performance.now();
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    times.push(performance.now() - began);
    if (child.status !== 0) throw new Error(`${script} failed: ${child.stderr}`);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)] as number;
}

const POLICY_WINDOW = 3;
const PROBABILITIES = { acceptanceCovered: 0.62, noOpenQuestions: 0.91 };

function makeOutputs(bytes: number, count: number): string[] {
  const words = 'the agent edited src/parser.ts and reran the failing suite; ';
  return Array.from({ length: count }, (_, i) => `step ${i}: ${words.repeat(Math.ceil(bytes / words.length))}`.slice(0, bytes));
}

const tests: TestEvidence = { passed: false, failed: ['parser > handles empty input', 'parser > keeps line numbers'], ran: 240 };

/** The baseline: fingerprint = JSON text of tests and the whole output, every one kept, stall check over the array. */
class BaselineLoop {
  readonly history: string[] = [];
  step(output: string, step: number): string {
    const fingerprint = JSON.stringify({ tests, output });
    this.history.push(fingerprint);
    const n = this.history.length;
    let stalled = n >= POLICY_WINDOW;
    for (let i = n - POLICY_WINDOW; stalled && i < n - 1; i++) stalled = this.history[i] === this.history[n - 1];
    if (stalled) return 'stalled';
    return decideCompletionAction(PROBABILITIES, tests, { step, recentFingerprints: [] }).reason;
  }
}

/** stopwise: a fixed-size fingerprint in a window of the last `stallRounds`. */
class StopwiseLoop {
  state: AgentLoopState = { step: 0, recentFingerprints: [] };
  step(output: string, step: number): string {
    const recentFingerprints = appendFingerprint(this.state.recentFingerprints, fingerprintProgress(tests, output), POLICY_WINDOW);
    this.state = { step, recentFingerprints };
    return decideCompletionAction(PROBABILITIES, tests, this.state).reason;
  }
}

export default async function run(): Promise<void> {
  const rows: string[][] = [];
  for (const size of [1024, 10 * 1024, 100 * 1024]) {
    const outputs = makeOutputs(size, 64);
    let baseline = new BaselineLoop();
    let ours = new StopwiseLoop();
    let i = 0;
    let j = 0;
    const result = await measure({
      baseline: () => {
        if (baseline.history.length > 2000) baseline = new BaselineLoop();
        return baseline.step(outputs[i++ & 63] as string, 1 + (i % 15));
      },
      stopwise: () => {
        if (j > 1e9) ours = new StopwiseLoop();
        return ours.step(outputs[j++ & 63] as string, 1 + (j % 15));
      },
    });
    const b = result.baseline!;
    const s = result.stopwise!;
    rows.push([
      `${size / 1024} KB`,
      `${b.meanUs.toFixed(2)} us`,
      `${s.meanUs.toFixed(2)} us`,
      `${(s.meanUs / b.meanUs).toFixed(2)}x`,
    ]);
  }
  printTable('core: time per step (fingerprint + stall check + decision)', ['output', 'baseline', 'stopwise', 'ratio'], rows);
  console.log('target: ratio <= 1.5x at 10 KB');

  const steps = 10_000;
  const size = 100 * 1024;
  const outputs = makeOutputs(size, 16);
  const ours = heapRetained(() => {
    const loop = new StopwiseLoop();
    for (let step = 1; step <= steps; step++) loop.step(outputs[step & 15] as string, step % 15);
    return loop;
  });
  const base = heapRetained(() => {
    const loop = new BaselineLoop();
    for (let step = 1; step <= steps; step++) loop.step(outputs[step & 15] as string, step % 15);
    return loop;
  });
  printTable(
    `core: heap retained after ${steps.toLocaleString('en')} steps of 100 KB outputs (after a forced GC)`,
    ['loop', 'retained', 'fingerprints kept'],
    [
      ['baseline', formatBytes(base.bytes), String(base.kept.history.length)],
      ['stopwise', formatBytes(ours.bytes), String(ours.kept.state.recentFingerprints.length)],
    ],
  );
  console.log('target: stopwise under 1 MB');

  const loop: AgentLoopState = { step: 4, recentFingerprints: ['a', 'b', 'c'] };
  const passing: TestEvidence = { passed: true, failed: [], ran: 240 };
  const decisions = await measure({
    'decideCompletionAction (tests pass, judged)': () => decideCompletionAction(PROBABILITIES, passing, loop),
    'decideCompletionAction (tests fail)': () => decideCompletionAction(PROBABILITIES, tests, loop),
  });
  printTable(
    'core: decisions per second',
    ['case', 'decisions/s', 'mean'],
    Object.entries(decisions).map(([name, r]) => [name, Math.round(r.opsPerSecond).toLocaleString('en'), `${r.meanUs.toFixed(3)} us`]),
  );

  // What `import 'stopwise'` costs a process, and how much of it is zod/mini (the finish tool's validator).
  const runs = 15;
  const bare = processMs('', runs);
  const imports = [
    ['node (nothing imported)', bare],
    ["import 'zod/mini'", processMs("await import('zod/mini')", runs)],
    ["import 'stopwise'", processMs("await import('stopwise')", runs)],
  ] as const;
  printTable(
    `core: a fresh process importing the main entry (median of ${runs} runs)`,
    ['process', 'median', 'beyond bare node'],
    imports.map(([name, ms]) => [name, `${ms.toFixed(1)} ms`, `${(ms - bare).toFixed(1)} ms`]),
  );
}
