import { describe, expect, it } from 'vitest';
import type { ReportedRun } from '../../src/report/reported-run.js';
import { reviewQueue } from '../../src/report/review-queue.js';

const run = (line: number, at: string, outcome: Partial<ReportedRun['outcome']> & Pick<ReportedRun['outcome'], 'exit'>, extra: Partial<ReportedRun> = {}): ReportedRun => ({
  line,
  at: Date.parse(at),
  humanWaits: [],
  outcome: { steps: line, usage: { wallClockMs: 0, cost: 0 }, ...outcome },
  ...extra,
});

describe('reviewQueue', () => {
  it('lists the give-ups and hand-offs only, newest first, with their notes and waits', () => {
    const queue = reviewQueue([
      run(1, '2026-03-02T10:00:00Z', { exit: 'gave_up', note: 'no fixture' }, { taskType: 'bugfix', impossible: true }),
      run(2, '2026-03-02T11:00:00Z', { exit: 'success' }),
      run(3, '2026-03-02T12:00:00Z', { exit: 'need_help', note: 'Which currency?', waitedMs: 300000 }),
      run(4, '2026-03-02T09:00:00Z', { exit: 'limit', limit: 'steps' }),
      run(5, '2026-03-02T12:00:00Z', { exit: 'gave_up', note: 'API removed' }),
      run(6, '2026-03-01T12:00:00Z', { exit: 'failed' }),
    ]);
    expect(queue).toEqual([
      { at: '2026-03-02T12:00:00.000Z', line: 5, taskType: 'default', exit: 'gave_up', note: 'API removed', steps: 5 },
      { at: '2026-03-02T12:00:00.000Z', line: 3, taskType: 'default', exit: 'need_help', note: 'Which currency?', steps: 3, waitedMs: 300000 },
      { at: '2026-03-02T10:00:00.000Z', line: 1, taskType: 'bugfix', exit: 'gave_up', note: 'no fixture', steps: 1, impossible: true },
    ]);
  });
});
