// `stopwise report` on 100,000 recorded outcomes (bench/simulated-outcomes.ts: full StopOutcomes with a trace of
// 2 to 24 turns, about 200 MB): the built command as a child process for the text, --json and --html outputs, next
// to a baseline program that only reads the same file in the same chunks and JSON.parses every line (the work no
// report can skip). Each is run 3 times, interleaved; the table shows the median wall time, CPU time (user + system,
// from /usr/bin/time) and peak resident memory, and the CPU time as a ratio to the baseline's. Then the phases in
// this process: reading and parsing, building the report, rendering the page, and the heap the runs and the report
// keep. The goal is 2 s for the report on 100,000 outcomes.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOutcomeReport } from '../src/report/outcome-report.js';
import { renderOutcomeReport } from '../src/report/outcome-report-html.js';
import { readOutcomeRecordsFile } from '../src/report/read-outcome-records-file.js';
import { collect, formatBytes, heapRetained, printTable } from './harness.js';
import { outcomesFileText, simulateOutcomeRecords } from './simulated-outcomes.js';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'bin', 'stopwise.js');
const RUNS = 100_000;
const REPEATS = 3;
const TIME = '/usr/bin/time';

const BASELINE = `
const { createReadStream } = require('node:fs');
const { StringDecoder } = require('node:string_decoder');
(async () => {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let count = 0;
  for await (const chunk of createReadStream(process.argv[2], { highWaterMark: 1 << 20 })) {
    const text = rest + decoder.write(chunk);
    let start = 0;
    for (let end = text.indexOf('\\n'); end !== -1; end = text.indexOf('\\n', start)) {
      if (end > start) { JSON.parse(text.slice(start, end)); count += 1; }
      start = end + 1;
    }
    rest = text.slice(start);
  }
  console.log(count);
})();
`;

interface Measured {
  readonly wallMs: number;
  readonly cpuMs: number | null;
  readonly maxRssKb: number | null;
}

function runTimed(args: readonly string[]): Measured {
  const timed = existsSync(TIME);
  const started = performance.now();
  const result = timed
    ? spawnSync(TIME, ['-f', '%U %S %M', process.execPath, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 })
    : spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  const wallMs = performance.now() - started;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${String(result.status)}: ${result.stderr}`);
  if (!timed) return { wallMs, cpuMs: null, maxRssKb: null };
  const [user, system, rss] = (result.stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number);
  return { wallMs, cpuMs: ((user ?? 0) + (system ?? 0)) * 1000, maxRssKb: rss ?? null };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function cpuNow(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

export default async function run(): Promise<void> {
  if (!existsSync(CLI)) throw new Error('build first: npm run build');
  const work = mkdtempSync(join(tmpdir(), 'stopwise-report-bench-'));
  try {
    const file = join(work, 'outcomes.jsonl');
    writeFileSync(file, outcomesFileText(simulateOutcomeRecords({ seed: 1, runs: RUNS, days: 60, rise: { taskType: 'bugfix', fromDay: 40, toDay: 42, limitShare: 0.3 } })));
    const bytes = statSync(file).size;
    const baselineScript = join(work, 'baseline.cjs');
    writeFileSync(baselineScript, BASELINE);

    const variants: readonly (readonly [string, readonly string[]])[] = [
      ['baseline: read + JSON.parse every line', [baselineScript, file]],
      ['stopwise report (text)', [CLI, 'report', file]],
      ['stopwise report --json', [CLI, 'report', file, '--json']],
      ['stopwise report --html', [CLI, 'report', file, '--html', join(work, 'outcomes.html')]],
    ];
    const samples = new Map<string, Measured[]>(variants.map(([name]) => [name, []]));
    for (let i = 0; i < REPEATS; i += 1) {
      for (const [name, args] of variants) samples.get(name)?.push(runTimed(args));
    }
    const baselineCpu = median((samples.get(variants[0]?.[0] ?? '') ?? []).map((s) => s.cpuMs ?? s.wallMs));
    const rows = variants.map(([name]) => {
      const measured = samples.get(name) ?? [];
      const cpu = measured.every((s) => s.cpuMs !== null) ? median(measured.map((s) => s.cpuMs as number)) : null;
      const rss = measured.every((s) => s.maxRssKb !== null) ? median(measured.map((s) => s.maxRssKb as number)) : null;
      return [
        name,
        median(measured.map((s) => s.wallMs)).toFixed(0),
        cpu === null ? 'n/a' : cpu.toFixed(0),
        cpu === null ? 'n/a' : (cpu / baselineCpu).toFixed(2),
        rss === null ? 'n/a' : formatBytes(rss * 1024),
      ];
    });
    printTable(
      `report: ${RUNS.toLocaleString('en')} outcomes, ${formatBytes(bytes)} of JSON Lines, median of ${REPEATS} (goal: 2000 ms)`,
      ['command', 'wall ms', 'CPU ms', 'CPU / baseline', 'peak RSS'],
      rows,
    );

    collect();
    const heapBefore = process.memoryUsage().heapUsed;
    let start = cpuNow();
    const read = await readOutcomeRecordsFile(file);
    const parseMs = cpuNow() - start;
    if (!read.ok) throw new Error('the simulated outcomes do not parse');
    collect();
    const runsBytes = process.memoryUsage().heapUsed - heapBefore;
    start = cpuNow();
    const report = buildOutcomeReport(read.runs);
    const buildMs = cpuNow() - start;
    start = cpuNow();
    const html = renderOutcomeReport({ report, source: file });
    const htmlMs = cpuNow() - start;
    start = cpuNow();
    const json = JSON.stringify({ source: file, skipped: read.skipped, ...report }, null, 2);
    const jsonMs = cpuNow() - start;
    const keptReport = heapRetained(() => buildOutcomeReport(read.runs));
    printTable(
      'report: phases in this process (CPU ms)',
      ['phase', 'CPU ms', 'size'],
      [
        ['read and parse (streamed)', parseMs.toFixed(0), `${read.runs.length} runs`],
        ['buildOutcomeReport', buildMs.toFixed(0), `${report.alerts.length} alerts, ${report.reviewQueue.length} to review`],
        ['renderOutcomeReport', htmlMs.toFixed(0), formatBytes(html.length)],
        ['JSON.stringify of the report', jsonMs.toFixed(0), formatBytes(json.length)],
        ['heap kept by the parsed runs', '', formatBytes(runsBytes)],
        ['heap kept by one report', '', formatBytes(keptReport.bytes)],
      ],
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
