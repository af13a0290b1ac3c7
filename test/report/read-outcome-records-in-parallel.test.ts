import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { outcomesFileText, simulateOutcomeRecords } from '../../bench/simulated-outcomes.js';
import { parseOutcomeRecords } from '../../src/report/parse-outcome-records.js';
import { readOutcomeRecordsFile } from '../../src/report/read-outcome-records-file.js';
import { readOutcomeRecordsFileInParallel } from '../../src/report/read-outcome-records-in-parallel.js';

// The worker runs as the built script (a worker thread cannot load TypeScript); the tests run after the build.
const WORKER = pathToFileURL(join(import.meta.dirname, '../../dist/bin/read-outcomes-worker.js'));
const folder = mkdtempSync(join(tmpdir(), 'stopwise-parallel-outcomes-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const lines = outcomesFileText(simulateOutcomeRecords({ seed: 3, runs: 120, days: 10 })).trimEnd().split('\n');

/** A file of the simulated records with some lines replaced: blank, broken JSON, a bad field, a stray byte-order mark. */
const fileText = fc
  .array(fc.tuple(fc.nat({ max: lines.length - 1 }), fc.constantFrom('', '   ', '{"broken', '{"outcome":{"exit":"maybe"},"at":"2026-01-01T00:00:00Z"}', '\ufeff{}')), { maxLength: 8 })
  .chain((edits) =>
    fc.record({
      edits: fc.constant(edits),
      bom: fc.boolean(),
      finalNewline: fc.boolean(),
    }),
  )
  .map(({ edits, bom, finalNewline }) => {
    const edited = [...lines];
    for (const [at, text] of edits) edited[at] = text;
    return `${bom ? '\ufeff' : ''}${edited.join('\n')}${finalNewline ? '\n' : ''}`;
  });

let files = 0;
function written(text: string): string {
  const path = join(folder, `outcomes-${files++}.jsonl`);
  writeFileSync(path, text);
  return path;
}

// Each run starts worker threads: on a busy machine that takes seconds.
describe('readOutcomeRecordsFileInParallel', { timeout: 180_000 }, () => {
  it('reads what the one-thread read does: the same runs, line numbers, skipped lines and first error', async () => {
    await fc.assert(
      fc.asyncProperty(fileText, fc.integer({ min: 2, max: 5 }), fc.boolean(), async (text, threads, skipInvalid) => {
        const path = written(text);
        const one = await readOutcomeRecordsFile(path, 'outcomes.jsonl', { skipInvalid });
        // Parts of about 1 KB: a file of 120 records is cut into as many parts as there are threads.
        const parallel = await readOutcomeRecordsFileInParallel(path, 'outcomes.jsonl', { skipInvalid }, { threads, minPartBytes: 1024, workerUrl: WORKER });
        expect(parallel).toEqual(one);
        expect(one).toEqual(parseOutcomeRecords(text, 'outcomes.jsonl', { skipInvalid }));
      }),
      { numRuns: 30 },
    );
  });

  it('reads on one thread when the file is small, or when the worker cannot start', async () => {
    const path = written(`${lines.join('\n')}\n`);
    const one = await readOutcomeRecordsFile(path, 'o.jsonl');
    expect(await readOutcomeRecordsFileInParallel(path, 'o.jsonl', {}, { threads: 4, workerUrl: WORKER })).toEqual(one);
    const missing = pathToFileURL(join(folder, 'no-such-worker.js'));
    expect(await readOutcomeRecordsFileInParallel(path, 'o.jsonl', {}, { threads: 3, minPartBytes: 1024, workerUrl: missing })).toEqual(one);
  });

  it('says why a file cannot be read, and never rejects', async () => {
    expect(await readOutcomeRecordsFileInParallel(join(folder, 'missing.jsonl'))).toMatchObject({ ok: false, io: expect.stringMatching(/no such file/) });
    expect(await readOutcomeRecordsFileInParallel(folder, 'folder', {}, { minPartBytes: 1 })).toMatchObject({ ok: false, io: expect.any(String) });
  });

  it('reads one record longer than a part as a whole', async () => {
    const long = JSON.stringify({ ...(JSON.parse(lines[0] as string) as Record<string, unknown>), taskType: 'x'.repeat(200_000) });
    const path = written(`${long}\n${lines.slice(1, 4).join('\n')}\n`);
    const one = await readOutcomeRecordsFile(path);
    expect(await readOutcomeRecordsFileInParallel(path, path, {}, { threads: 4, minPartBytes: 1024, workerUrl: WORKER })).toEqual(one);
  });
});
