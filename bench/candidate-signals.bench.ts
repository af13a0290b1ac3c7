// Candidate stall signals tried against the corpus, not part of the detector: each alone and OR-ed with
// the default options, per source: wasted runs caught (steps saved) and good runs stopped early.
// `npm run bench -- candidate`. Kept so that the figures quoted for them can be checked.
import type { StallStep } from '../src/index.js';
import { initialStallState, observeStep } from '../src/stall/index.js';
import { printTable } from './harness.js';
import { readJsonLines, isWasted, isGood, toStallStep, type CorpusRun } from './stall/corpus.js';
import { digestStep } from '../src/core/stall-detection/step-digest.js';
import { DEFAULT_STALL_OPTIONS } from '../src/core/stall-detection/stall-options.js';

type Signal = { name: string; make: () => (step: StallStep, index: number) => boolean };

// A: the same call made again after other steps (not in a row), whatever it returned, N times within a window.
const reapplied = (n: number, tools?: RegExp): Signal => ({
  name: `call re-made after other steps ${n}x${tools ? ' (edits only)' : ''}`,
  make: () => {
    const seen = new Map<string, { count: number; last: number }>();
    return (step, index) => {
      if (step.tool === undefined) return false;
      if (tools && !tools.test(step.tool + ' ' + JSON.stringify(step.input))) return false;
      const d = digestStep(step, DEFAULT_STALL_OPTIONS);
      const prev = seen.get(d.callDigest);
      if (prev === undefined) { seen.set(d.callDigest, { count: 1, last: index }); return false; }
      const count = index - prev.last > 1 ? prev.count + 1 : prev.count;
      seen.set(d.callDigest, { count, last: index });
      return count >= n;
    };
  },
});
// B: failures that teach nothing new: among the last W steps, at least F failed and none of them had an error signature not seen before in the run.
const staleFailures = (w: number, f: number): Signal => ({
  name: `>= ${f} of last ${w} steps failed, no new error`,
  make: () => {
    const signatures = new Set<string>();
    const recent: { failed: boolean; fresh: boolean }[] = [];
    return (step) => {
      const d = digestStep(step, DEFAULT_STALL_OPTIONS);
      const failed = d.call && d.failed;
      const fresh = failed && !signatures.has(d.signatureDigest);
      if (failed) signatures.add(d.signatureDigest);
      recent.push({ failed, fresh });
      if (recent.length > w) recent.shift();
      return recent.length === w && recent.filter((r) => r.failed).length >= f && !recent.some((r) => r.fresh);
    };
  },
});
// C: no new output: the last W steps' (normalised) outputs were all seen earlier in the run.
const noNewOutput = (w: number): Signal => ({
  name: `last ${w} outputs all seen before`,
  make: () => {
    const outputs = new Set<string>();
    let streak = 0;
    return (step) => {
      const d = digestStep(step, DEFAULT_STALL_OPTIONS);
      const key = d.resultDigest;
      if (outputs.has(key)) streak++; else { streak = 0; outputs.add(key); }
      return streak >= w;
    };
  },
});

const noNewOutputFailing = (w: number, f: number): Signal => ({
  name: `last ${w} outputs seen before, >= ${f} failed`,
  make: () => {
    const outputs = new Set<string>();
    const recent: { seen: boolean; failed: boolean }[] = [];
    return (step) => {
      const d = digestStep(step, DEFAULT_STALL_OPTIONS);
      const seen = outputs.has(d.resultDigest);
      outputs.add(d.resultDigest);
      recent.push({ seen, failed: d.call && d.failed });
      if (recent.length > w) recent.shift();
      return recent.length === w && recent.every((r) => r.seen) && recent.filter((r) => r.failed).length >= f;
    };
  },
});
type Prepared = { wasted: boolean; steps: StallStep[] };
const EDITS = /^(edit|str_replace|create|insert)|sed -i|cat\s*>|apply_patch/;

export default async function run(): Promise<void> {
  const java = readJsonLines<CorpusRun>('swe-agent-java-5-models.jsonl');
  const mini = readJsonLines<CorpusRun>('mini-swe-agent-gemini3pro-swebench-verified.jsonl');
  if (java === undefined || mini === undefined) {
    console.log('\n## Candidate stall signals\n\nskipped: the corpus is absent on this machine.');
    return;
  }
  const sources = [
    { name: 'SWE-agent Java', runs: java },
    { name: 'mini-SWE-agent', runs: mini },
  ];
const prepared = sources.map((s) => ({ name: s.name, runs: s.runs.filter((r) => isWasted(r) || isGood(r)).map((r) => ({ wasted: isWasted(r), steps: r.steps.map(toStallStep).filter((x): x is StallStep => x !== 'user') })) }));
const defaultsStop = new Map<object, number>();
for (const s of prepared) for (const r of s.runs) {
  let state = initialStallState(); let at = -1;
  for (const [i, step] of r.steps.entries()) { const o = observeStep(state, step); if (o.stall) { at = i; break; } state = o.state; }
  defaultsStop.set(r, at);
}
const signals: Signal[] = [
  reapplied(3),
  reapplied(4),
  reapplied(5),
  reapplied(3, EDITS),
  reapplied(4, EDITS),
  staleFailures(10, 6),
  staleFailures(12, 8),
  noNewOutput(6),
  noNewOutput(8),
  noNewOutput(10),
  noNewOutput(12),
  noNewOutput(15),
  noNewOutputFailing(6, 3),
  noNewOutputFailing(10, 5),
];
const rows: string[][] = [];
const row = (label: string, stopOf: (r: Prepared) => number) => {
  const cells = prepared.map((s) => {
    let caught = 0, wasted = 0, good = 0, fa = 0, saved = 0, steps = 0;
    for (const r of s.runs) { const at = stopOf(r); if (r.wasted) { wasted++; steps += r.steps.length; if (at >= 0) { caught++; saved += r.steps.length - at - 1; } } else { good++; if (at >= 0 && at < r.steps.length - 1) fa++; } }
    return `${caught}/${wasted} (${steps ? ((100 * saved) / steps).toFixed(1) : '-'}%), ${fa}/${good}`;
  });
  rows.push([label, ...cells]);
};
row('defaults', (r) => defaultsStop.get(r)!);
for (const sig of signals) {
  const alone = new Map<object, number>();
  for (const s of prepared) for (const r of s.runs) { const f = sig.make(); let at = -1; for (const [i, step] of r.steps.entries()) if (f(step, i)) { at = i; break; } alone.set(r, at); }
  row(`${sig.name} (alone)`, (r) => alone.get(r)!);
  row(`defaults OR ${sig.name}`, (r) => { const a = defaultsStop.get(r)!, b = alone.get(r)!; return a < 0 ? b : b < 0 ? a : Math.min(a, b); });
}
  printTable(
    'Candidate stall signals (not in the detector): wasted caught (steps saved), good stopped early',
    ['signal', 'SWE-agent Java', 'mini-SWE-agent'],
    rows,
  );
}
