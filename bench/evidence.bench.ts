// readJUnitXml on a generated, realistic 100,000-test-case JUnit report (about
// 19 MB, written to the OS temp folder and removed afterwards), next to the
// floor: reading the same file and counting `<testcase` occurrences. The two
// are run in turn, RUNS times each, and compared by their medians.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createSeededRandom, type RandomSource } from '../src/calibrate/seeded-random.js';
import { readJUnitXml } from '../src/evidence/index.js';
import { collect, formatBytes, printTable } from './harness.js';

const TEST_CASES = 100_000;
const PER_SUITE = 100;
const RUNS = 7;
const SEED = 20261201;
/** One case in this many fails (with a CDATA stack trace); one in `SKIPPED_EVERY` is skipped; most others print. */
const FAILING_EVERY = 50;
const SKIPPED_EVERY = 40;

const WORDS = ['parses', 'renders', 'returns', 'rejects', 'keeps', 'sorts', 'merges', 'retries', 'caches', 'formats', 'reads', 'writes'];
const THINGS = ['the header', 'an empty list', 'unicode names', 'nested groups', 'the last page', 'a missing key', 'large inputs', 'the default'];

function pick<T>(random: RandomSource, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

/** A failure as vitest and jest-junit write it: the message attribute, and the stack trace in CDATA. */
function failureElement(random: RandomSource, file: string, line: number): string {
  const expected = Math.floor(random() * 100);
  const message = `expected ${expected + 1} to be ${expected} // Object.is equality`;
  const frames = Array.from({ length: 3 + Math.floor(random() * 5) }, (_, i) => `    at ${pick(random, WORDS)}Step (${file}:${line + i * 7}:${1 + Math.floor(random() * 40)})`);
  const stack = [`AssertionError: ${message}`, '', '- Expected', '+ Received', '', `- ${expected}`, `+ ${expected + 1}`, '', ` ❯ ${file}:${line}:43`, ...frames].join('\n');
  return `<failure message="${message}" type="AssertionError"><![CDATA[${stack}]]></failure>`;
}

/**
 * A seeded, deterministic report shaped like a large real one: suites of
 * `PER_SUITE` cases, names with `&gt;` and `&quot;` entities, failures with
 * CDATA stack traces, skipped cases, and `<system-out>` on most of the others.
 */
async function writeReport(path: string): Promise<void> {
  const random = createSeededRandom(SEED);
  const out = createWriteStream(path);
  const write = async (text: string): Promise<void> => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(`<?xml version="1.0" encoding="UTF-8" ?>\n<testsuites name="vitest tests" tests="${TEST_CASES}" failures="${TEST_CASES / FAILING_EVERY}" errors="0" time="812.5">\n`);
  for (let s = 0; s < TEST_CASES / PER_SUITE; s++) {
    const file = `src/${pick(random, ['core', 'cli', 'io', 'ui'])}/feature-${s}.test.ts`;
    let lines = '';
    for (let t = 0; t < PER_SUITE; t++) {
      const index = s * PER_SUITE + t;
      const name = `${pick(random, WORDS)} &gt; ${pick(random, THINGS)} &quot;${t}&quot;`;
      const time = (random() * 0.05).toFixed(3);
      let body = '';
      if (index % FAILING_EVERY === 7) body = failureElement(random, file, 10 + t);
      else if (index % SKIPPED_EVERY === 3) body = '<skipped/>';
      else if (random() < 0.9) body = `<system-out>rendered ${Math.floor(random() * 500)} rows in ${Math.floor(random() * 90)} ms; id ${s}-${t}\ncache hits ${Math.floor(random() * 100)}%\n</system-out>`;
      lines += `<testcase classname="${file}" name="${name}" time="${time}">${body}</testcase>\n`;
    }
    await write(`<testsuite name="${file}" tests="${PER_SUITE}" time="0.8125">\n${lines}</testsuite>\n`);
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

/** The counts the reader must find in the generated report. */
function expectedCounts(): { ran: number; skipped: number; failed: number } {
  let failed = 0;
  let skipped = 0;
  for (let index = 0; index < TEST_CASES; index++) {
    if (index % FAILING_EVERY === 7) failed++;
    else if (index % SKIPPED_EVERY === 3) skipped++;
  }
  return { ran: TEST_CASES - skipped, skipped, failed };
}

export default async function run(): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'stopwise-bench-'));
  const path = join(folder, 'junit.xml');
  try {
    await writeReport(path);
    const size = (await stat(path)).size;
    const mb = size / (1024 * 1024);
    const expected = expectedCounts();
    const floor: Sample[] = [];
    const reader: Sample[] = [];
    let evidence: Awaited<ReturnType<typeof readJUnitXml>> | undefined;
    for (let i = 0; i < RUNS; i++) {
      const counted = await sampled(() => countTestCases(path));
      if (counted.value !== TEST_CASES) throw new Error(`the floor counted ${counted.value} test cases`);
      floor.push(counted);
      const read = await sampled(() => readJUnitXml(createReadStream(path)));
      evidence = read.value;
      reader.push(read);
    }
    // saxes alone runs in a process of its own: other handlers in this process would make the
    // parser's call sites polymorphic and slow every later run down.
    const parserOnly = saxesAloneInChild(path, false);
    if (evidence === undefined || evidence.ran !== expected.ran || evidence.skipped !== expected.skipped || evidence.failed.length !== expected.failed) {
      throw new Error(`readJUnitXml read ${JSON.stringify({ ran: evidence?.ran, skipped: evidence?.skipped, failed: evidence?.failed.length })}, expected ${JSON.stringify(expected)}`);
    }
    const median = (runs: Sample[], key: 'ms' | 'cpuMs'): number => runs.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(runs.length / 2)] ?? 0;
    const best = (runs: Sample[], key: 'ms' | 'cpuMs'): number => Math.min(...runs.map((r) => r[key]));
    const peak = (runs: Sample[], key: 'heap' | 'rss'): number => Math.max(...runs.map((r) => r[key]));
    const rate = (ms: number): string => (mb / (ms / 1000)).toFixed(1);
    const row = (name: string, runs: Sample[]): string[] => [
      name,
      `${median(runs, 'ms').toFixed(0)} ms`,
      rate(median(runs, 'ms')),
      rate(best(runs, 'ms')),
      rate(median(runs, 'cpuMs')),
      `${(median(floor, 'ms') / median(runs, 'ms')).toFixed(2)}`,
      formatBytes(peak(runs, 'heap')),
      formatBytes(peak(runs, 'rss')),
    ];
    printTable(
      `evidence: reading a ${formatBytes(size)} JUnit report of ${TEST_CASES.toLocaleString('en')} test cases (seed ${SEED}; ${RUNS} runs of the floor and the reader in turn; peak memory growth over all runs)`,
      ['reader', 'median time', 'MB/s (median)', 'MB/s (best)', 'MB/s (CPU, median)', 'speed / floor', 'heap growth', 'rss growth'],
      [
        row('floor: read + count "<testcase"', floor),
        row('saxes alone (own process)', parserOnly),
        row('readJUnitXml (stream)', reader),
      ],
    );
    console.log(`load average while measuring: ${loadavg().map((load) => load.toFixed(1)).join(' ')} on ${availableParallelism()} cores`);
    console.log(`read: ran ${evidence.ran}, skipped ${evidence.skipped}, failed ${evidence.failed.length}`);
    console.log(`readJUnitXml: ${rate(median(reader, 'ms'))} MB/s (median), heap growth ${formatBytes(peak(reader, 'heap'))}; targets: >= 50 MB/s, heap growth <= 64 MB`);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
