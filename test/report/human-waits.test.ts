import { describe, expect, it } from 'vitest';
import { summarizeHumanWaits } from '../../src/report/human-waits.js';

describe('summarizeHumanWaits', () => {
  it('counts the questions per task type and gives the median, 90th percentile and longest answer time', () => {
    const answered = (waitedMs: number) => ({ waitedMs, answered: true, timedOut: false });
    const summary = summarizeHumanWaits([
      { taskType: 'billing', humanWaits: [answered(60_000), answered(20_000)] },
      { taskType: 'billing', humanWaits: [answered(40_000), { waitedMs: 300_000, answered: false, timedOut: true }] },
      { taskType: 'billing', humanWaits: [answered(900_000), { waitedMs: 0, answered: false, timedOut: false }] },
      { taskType: 'bugfix', humanWaits: [] },
      { humanWaits: [{ waitedMs: 300_000, answered: false, timedOut: true }] },
    ]);
    expect(Object.keys(summary)).toEqual(['billing', 'default']);
    expect(summary.billing).toEqual({
      questions: 6,
      answered: 4,
      timedOut: 1,
      nobodyAsked: 1,
      answerMs: { median: 40_000, p90: 900_000, max: 900_000 },
      totalWaitMs: 1_320_000,
    });
    expect(summary.default).toMatchObject({ questions: 1, answered: 0, answerMs: null, totalWaitMs: 300_000 });
  });
});
