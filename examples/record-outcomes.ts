import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAgentLoop, type FinishSignal } from 'stopwise';
import { appendOutcomeRecord, buildOutcomeReport, readOutcomeRecordsFile } from 'stopwise/report';

const file = join(mkdtempSync(join(tmpdir(), 'stopwise-outcomes-')), 'outcomes.jsonl');

// Three runs of a stand-in agent: one that finishes on turn 2, one that never does, one that gives up.
const scripts: (FinishSignal | undefined)[] = [{ kind: 'done', note: 'Fixed.' }, undefined, { kind: 'give_up', note: 'The fixture is missing.' }];
for (const [index, signal] of scripts.entries()) {
  const outcome = await runAgentLoop({
    limits: { maxSteps: 4 },
    turn: async (state) => ({ text: `turn ${state.step}`, ...(state.step === 2 && signal !== undefined ? { signal } : {}) }),
    verify: async () => ({ ok: true }),
  });
  await appendOutcomeRecord(file, outcome, { taskType: 'bugfix', at: `2026-03-02T10:0${index}:00Z` });
}

const read = await readOutcomeRecordsFile(file);
if (!read.ok) throw new Error('the outcomes file could not be read');
const report = buildOutcomeReport(read.runs);
console.log(report.byTaskType.bugfix?.counts, report.reviewQueue[0]?.note);
// { success: 1, limit: 1, gave_up: 1, need_help: 0, failed: 0 } The fixture is missing.
