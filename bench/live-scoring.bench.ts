// Live scoring as `stopwise calibrate --live` does it: the System One client
// built by createConfiguredClient, scoreCases with a score cache file, against
// a loopback server that answers after a fixed latency. Then the resume path:
// opening a large cache file and taking every answer from it.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LabelledCase } from '../src/calibrate/labelled-case.js';
import { openScoreCacheFile } from '../src/calibrate/score-cache-file.js';
import { caseState, scoreCacheKey, scoreCases } from '../src/calibrate/score-cases.js';
import { doneCriteria } from '../src/decision-model/boolean-question.js';
import { createConfiguredClient } from '../src/decision-model/create-configured-client.js';
import { collect, formatBytes, printTable } from './harness.js';

const LATENCY_MS = 20;
const NAMESPACE = 'system-one:judge-small';

function unscoredCases(count: number): LabelledCase[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `c${index}`,
    task: `Task ${index}: make the retry wait with backoff`,
    acceptance: ['the retry waits with backoff', 'a test covers it'],
    output: `Output ${index}: added exponential backoff and a test; ${'details '.repeat(40)}`,
    tests: { passed: true, failed: [], ran: 40 },
    label: index % 3 === 0 ? 'not_done' : 'done',
  }));
}

async function startSystemOne(): Promise<{ baseURL: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () =>
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          '{"model":"judge-small-2026-09-01","answers":{"acceptanceCovered":{"type":"noul","noul":0.81},"noOpenQuestions":{"type":"noul","noul":0.9}},"usage":{"input_tokens":900,"output_tokens":4}}',
        );
      }, LATENCY_MS),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export default async function run(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'stopwise-bench-live-'));
  const server = await startSystemOne();
  try {
    const client = await createConfiguredClient(
      { client: 'system-one' },
      { env: { SYSTEM_ONE_API_KEY: 'bench-key', SYSTEM_ONE_BASE_URL: server.baseURL, SYSTEM_ONE_MODEL: 'judge-small' } },
    );
    const cases = unscoredCases(400);
    const rows: string[][] = [];
    for (const concurrency of [1, 4, 16]) {
      const count = concurrency === 1 ? 100 : 400;
      const cache = await openScoreCacheFile(join(folder, `scores-${concurrency}.jsonl`));
      const started = performance.now();
      const result = await scoreCases(cases.slice(0, count), client, { concurrency, cache, cacheNamespace: NAMESPACE });
      await cache.flush();
      const seconds = (performance.now() - started) / 1000;
      if (result.scored !== count) throw new Error(`scored ${result.scored} of ${count}: ${result.failures[0]?.message}`);
      const ceiling = (concurrency * 1000) / LATENCY_MS;
      rows.push([
        String(concurrency),
        String(count),
        (count / seconds).toFixed(1),
        ceiling.toFixed(0),
        `${((count / seconds / ceiling) * 100).toFixed(0)}%`,
      ]);
    }
    printTable(
      `live scoring: cases per second through the System One client and a cache file (loopback server, ${LATENCY_MS} ms per answer)`,
      ['concurrency', 'cases', 'cases/s', 'ceiling', 'of ceiling'],
      rows,
    );

    // Resume: a cache file of 100,000 answers, then a run that asks nothing.
    const many = unscoredCases(100_000);
    const bigPath = join(folder, 'big.jsonl');
    const writer = await openScoreCacheFile(bigPath);
    for (const labelled of many) {
      void writer.set(scoreCacheKey(NAMESPACE, caseState(labelled), doneCriteria), {
        model: 'judge-small-2026-09-01',
        probabilities: { acceptanceCovered: 0.81, noOpenQuestions: 0.9 },
      });
    }
    const writeStarted = performance.now();
    await writer.flush();
    const writeMs = performance.now() - writeStarted;
    const openStarted = performance.now();
    const opened = await openScoreCacheFile(bigPath);
    const openMs = performance.now() - openStarted;
    const idle = { evaluate: () => Promise.reject(new Error('a resumed run must not ask')) };
    const resumeStarted = performance.now();
    const resumed = await scoreCases(many, idle, { cache: opened, cacheNamespace: NAMESPACE, concurrency: 4 });
    const resumeMs = performance.now() - resumeStarted;
    if (resumed.fromCache !== many.length) throw new Error(`only ${resumed.fromCache} answers came from the cache`);
    collect();
    const heapBefore = process.memoryUsage().heapUsed;
    const held = await openScoreCacheFile(bigPath);
    collect();
    const heapHeld = process.memoryUsage().heapUsed - heapBefore;
    if (held.loaded !== many.length) throw new Error(`the cache held ${held.loaded} answers`);
    printTable(
      'live scoring: resuming from a cache file of 100,000 answers',
      ['step', 'ms'],
      [
        ['append 100,000 answers (queued appends, one a line)', writeMs.toFixed(0)],
        ['open the cache file', openMs.toFixed(0)],
        ['scoreCases over 100,000 cases, all from the cache (key = SHA-256 of the state)', resumeMs.toFixed(0)],
      ],
    );
    console.log(`\ncache file ${formatBytes(statSync(bigPath).size)}; heap held by the opened cache ${formatBytes(heapHeld)}`);
  } finally {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  }
}
