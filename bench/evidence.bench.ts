// readJUnitXml on a generated 100,000-test-case JUnit report (about 30 MB, written
// to the OS temp folder and removed afterwards), next to the floor: reading the
// same file and counting `<testcase` occurrences.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readJUnitXml } from '../src/evidence/index.js';
import { collect, formatBytes, printTable } from './harness.js';

const TEST_CASES = 100_000;
const PER_SUITE = 100;
const RUNS = 5;

async function writeReport(path: string): Promise<void> {
  const out = createWriteStream(path);
  const write = async (text: string): Promise<void> => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(`<?xml version="1.0" encoding="UTF-8" ?>\n<testsuites name="vitest tests" tests="${TEST_CASES}" failures="${TEST_CASES / PER_SUITE}" errors="0" time="812.5">\n`);
  for (let s = 0; s < TEST_CASES / PER_SUITE; s++) {
    const file = `src/feature-${s}/module-${s}.test.ts`;
    await write(`    <testsuite name="${file}" timestamp="2025-01-01T00:00:00.000Z" hostname="ci" tests="${PER_SUITE}" failures="1" errors="0" skipped="2" time="0.8125">\n`);
    for (let t = 0; t < PER_SUITE; t++) {
      const name = `module ${s} &gt; handles case ${t} &gt; returns the expected value for input number ${t} with options`;
      let body = '';
      if (t === 7) {
        body = `\n            <failure message="expected 3.5 to be 3 // Object.is equality" type="AssertionError">\nAssertionError: expected 3.5 to be 3 // Object.is equality\n\n- Expected\n+ Received\n\n- 3\n+ 3.5\n\n ❯ ${file}:${t + 10}:43\n            </failure>\n        `;
      } else if (t < 2) {
        body = '\n            <skipped/>\n        ';
      } else {
        body = `\n            <system-out>\nrendered ${t} rows in 3 ms; cache hit ratio 0.97; request id 4f1c-${s}-${t}\n            </system-out>\n        `;
      }
      await write(`        <testcase classname="${file}" name="${name}" time="0.008">${body}</testcase>\n`);
    }
    await write('    </testsuite>\n');
  }
  await write('</testsuites>\n');
  out.end();
  await once(out, 'finish');
}

interface Sample {
  readonly ms: number;
  readonly cpuMs: number;
  readonly heap: number;
  readonly rss: number;
}

/**
 * Runs `task` while sampling memory; returns its result, the wall-clock and
 * CPU time (user + system, which other processes on a busy machine inflate
 * less) and the peak growth of heap and RSS over the start.
 */
async function sampled<T>(task: () => Promise<T>): Promise<Sample & { value: T }> {
  collect();
  const start = process.memoryUsage();
  let heap = start.heapUsed;
  let rss = start.rss;
  const sample = (): void => {
    const now = process.memoryUsage();
    heap = Math.max(heap, now.heapUsed);
    rss = Math.max(rss, now.rss);
  };
  const timer = setInterval(sample, 5);
  const began = performance.now();
  const cpu = process.cpuUsage();
  const value = await task();
  const used = process.cpuUsage(cpu);
  const ms = performance.now() - began;
  clearInterval(timer);
  sample();
  return { value, ms, cpuMs: (used.user + used.system) / 1000, heap: heap - start.heapUsed, rss: rss - start.rss };
}

async function countTestCases(path: string): Promise<number> {
  let count = 0;
  let carry = '';
  for await (const chunk of createReadStream(path, { encoding: 'utf8' })) {
    const text = carry + (chunk as string);
    for (let at = text.indexOf('<testcase'); at !== -1; at = text.indexOf('<testcase', at + 1)) count++;
    carry = text.slice(-8);
  }
  return count;
}

/** saxes alone (counting opening tags, no reader), `RUNS` times in a fresh Node process. */
function saxesAloneInChild(path: string, position: boolean): Sample[] {
  const script = fileURLToPath(new URL('./saxes-alone.ts', import.meta.url));
  const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', script, path, String(position), String(RUNS)], {
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`saxes alone failed: ${child.stderr}`);
  return JSON.parse(child.stdout) as Sample[];
}

export default async function run(): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'stopwise-bench-'));
  const path = join(folder, 'junit.xml');
  try {
    await writeReport(path);
    const size = (await stat(path)).size;
    const mb = size / (1024 * 1024);
    const floor: Sample[] = [];
    const reader: Sample[] = [];
    const parserOnly: Sample[] = [];
    const parserWithPosition: Sample[] = [];
    let evidence: Awaited<ReturnType<typeof readJUnitXml>> | undefined;
    for (let i = 0; i < RUNS; i++) {
      const counted = await sampled(() => countTestCases(path));
      if (counted.value !== TEST_CASES) throw new Error(`the floor counted ${counted.value} test cases`);
      floor.push(counted);
      const read = await sampled(() => readJUnitXml(createReadStream(path)));
      evidence = read.value;
      reader.push(read);
    }
    // saxes alone runs in processes of its own: other handlers in this process would make the
    // parser's call sites polymorphic and slow every later run down.
    parserOnly.push(...saxesAloneInChild(path, false));
    parserWithPosition.push(...saxesAloneInChild(path, true));
    if (evidence === undefined || evidence.total !== TEST_CASES || evidence.failed.length !== TEST_CASES / PER_SUITE) {
      throw new Error(`readJUnitXml read ${JSON.stringify({ total: evidence?.total, failed: evidence?.failed.length })}`);
    }
    const best = (runs: Sample[], key: 'ms' | 'cpuMs'): number => Math.min(...runs.map((r) => r[key]));
    const median = (runs: Sample[], key: 'ms' | 'cpuMs'): number => runs.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(runs.length / 2)] ?? 0;
    const peak = (runs: Sample[], key: 'heap' | 'rss'): number => Math.max(...runs.map((r) => r[key]));
    const rate = (ms: number): string => `${(mb / (ms / 1000)).toFixed(1)} MB/s`;
    const row = (name: string, runs: Sample[]): string[] => [
      name,
      `${best(runs, 'ms').toFixed(0)} ms`,
      rate(best(runs, 'ms')),
      rate(median(runs, 'ms')),
      rate(best(runs, 'cpuMs')),
      formatBytes(peak(runs, 'heap')),
      formatBytes(peak(runs, 'rss')),
    ];
    printTable(
      `evidence: reading a ${formatBytes(size)} JUnit report of ${TEST_CASES.toLocaleString('en')} test cases (${RUNS} runs; peak memory growth over all runs)`,
      ['reader', 'best time', 'MB/s (best)', 'MB/s (median)', 'MB/s (CPU time)', 'heap growth', 'rss growth'],
      [
        row('floor: read + count "<testcase"', floor),
        row('saxes alone, position tracking off', parserOnly),
        row('saxes alone, position tracking on', parserWithPosition),
        row('readJUnitXml (stream)', reader),
      ],
    );
    console.log(`load average while measuring: ${loadavg().map((load) => load.toFixed(1)).join(' ')} on ${availableParallelism()} cores`);
    console.log(`read: ran ${evidence.ran}, skipped ${evidence.skipped}, failed ${evidence.failed.length}`);
    console.log('targets: readJUnitXml >= 50 MB/s, memory growth < 64 MB');
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
