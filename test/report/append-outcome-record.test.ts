import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolders } from '../support/temp-folders.js';
import { emptyUsage } from '../../src/core/budget.js';
import type { StopOutcome } from '../../src/core/stop-outcome.js';
import { appendOutcomeRecord } from '../../src/report/append-outcome-record.js';
import { parseOutcomeRecords } from '../../src/report/parse-outcome-records.js';
import { readOutcomeRecordsFile } from '../../src/report/read-outcome-records-file.js';

/** A new temporary folder, removed after each test. */
const tempFolder = tempFolders();

const outcome = (note: string): StopOutcome => ({ exit: 'gave_up', note, steps: 2, usage: emptyUsage(), text: '', trace: [] });

describe('appendOutcomeRecord', () => {
  it('creates the file and its folder, appends one line per run, and the report reads them back', async () => {
    const file = join(tempFolder('stopwise-outcomes-'), 'logs', 'outcomes.jsonl');
    const first = await appendOutcomeRecord(file, outcome('first'), { taskType: 'bugfix', at: '2026-03-02T10:00:00Z' });
    expect(first).toEqual({ outcome: outcome('first'), taskType: 'bugfix', at: '2026-03-02T10:00:00Z' });
    const before = Date.now();
    await Promise.all(Array.from({ length: 50 }, (_, i) => appendOutcomeRecord(file, outcome(`run ${i} ${'x'.repeat(2000)}`), { impossible: i % 2 === 0 })));
    const after = Date.now();
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines).toHaveLength(52);
    const read = parseOutcomeRecords(readFileSync(file, 'utf8'), file);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.runs).toHaveLength(51);
    // at defaults to the time of the call
    for (const run of read.runs.slice(1)) {
      expect(run.at).toBeGreaterThanOrEqual(before);
      expect(run.at).toBeLessThanOrEqual(after);
    }
  });

  it('rejects for a file it cannot write, and for a malformed outcome', async () => {
    const folder = tempFolder('stopwise-outcomes-');
    writeFileSync(join(folder, 'plain'), '');
    await expect(appendOutcomeRecord(join(folder, 'plain', 'outcomes.jsonl'), outcome('x'))).rejects.toThrow(/EEXIST|ENOTDIR/);
    await expect(appendOutcomeRecord(join(folder, 'o.jsonl'), { exit: 'nope' } as unknown as StopOutcome)).rejects.toThrow(TypeError);
  });
});

describe('readOutcomeRecordsFile', () => {
  it('reads the file in chunks as parseOutcomeRecords reads the text, lines split across chunks included', async () => {
    const folder = tempFolder('stopwise-outcomes-');
    const file = join(folder, 'o.jsonl');
    const line = (i: number) => JSON.stringify({ outcome: { exit: 'gave_up', note: `${i} ${'é'.repeat(3000)}`, steps: 1, usage: emptyUsage() }, at: '2026-03-02T10:00:00Z' });
    // about 2.4 MB of two-byte characters: lines and characters cross the 1 MB chunks
    const text = `${Array.from({ length: 400 }, (_, i) => line(i)).join('\n')}\n\nnot json`;
    writeFileSync(file, text);
    const streamed = await readOutcomeRecordsFile(file, 'o.jsonl', { skipInvalid: true });
    expect(streamed).toEqual(parseOutcomeRecords(text, 'o.jsonl', { skipInvalid: true }));
    expect(streamed.ok && streamed.runs.length).toBe(400);
    expect(streamed.ok && streamed.skipped.lines).toEqual([402]);
    const strict = await readOutcomeRecordsFile(file, 'o.jsonl');
    expect(strict).toMatchObject({ ok: false, error: { line: 402 } });
    expect(await readOutcomeRecordsFile(join(folder, 'missing.jsonl'))).toEqual({ ok: false, io: 'no such file or folder' });
    expect(await readOutcomeRecordsFile(folder)).toEqual({ ok: false, io: 'is a folder, expected a file' });
  });
});
