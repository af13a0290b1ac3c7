import { describe, expect, it } from 'vitest';
import { summarizeOutcomes } from '../../src/core/summarize-outcomes.js';
import { suggestLimits } from '../../src/core/suggest-limits.js';
import { buildOutcomeReport } from '../../src/report/outcome-report.js';
import { parseOutcomeRecords } from '../../src/report/parse-outcome-records.js';
import { outcomesFileText, simulateOutcomeRecords } from '../../bench/simulated-outcomes.js';

describe('buildOutcomeReport', () => {
  const records = simulateOutcomeRecords({ seed: 7, runs: 3000, days: 30, rise: { taskType: 'bugfix', fromDay: 20, toDay: 22, limitShare: 0.35 } });
  const read = parseOutcomeRecords(outcomesFileText(records), 'o.jsonl');
  if (!read.ok) throw new Error('the simulated records do not parse');
  const report = buildOutcomeReport(read.runs, { bucket: 'day' });

  it('gives summarizeOutcomes and suggestLimits per task type as they are', () => {
    expect(report.byTaskType).toEqual(summarizeOutcomes(read.runs));
    expect(report.suggestedLimits).toEqual(suggestLimits(read.runs));
    expect(report.runs).toBe(3000);
    expect(report.from.slice(0, 10)).toBe('2026-03-02');
    expect(report.to.slice(0, 10)).toBe('2026-03-31');
  });

  it('alerts on the planted rise of limit stops, for bugfix only', () => {
    expect(report.alerts.length).toBeGreaterThan(0);
    expect(report.alerts.every((alert) => alert.taskType === 'bugfix')).toBe(true);
    expect(report.alerts[0]?.start).toBe('2026-03-22T00:00:00.000Z');
  });

  it('queues every give-up and hand-off, and rates checked successes and impossible tasks', () => {
    const expected = records.filter((record) => record.outcome.exit === 'gave_up' || record.outcome.exit === 'need_help').length;
    expect(report.reviewQueue).toHaveLength(expected);
    const bugfix = report.byTaskType.bugfix;
    const checked = records.filter((r) => r.taskType === 'bugfix' && r.outcome.exit === 'success' && r.independentCheck !== undefined);
    expect(bugfix?.checkedSuccesses).toBe(checked.length);
    expect(bugfix?.trueSuccessRate).toBeCloseTo(checked.filter((r) => r.independentCheck === true).length / checked.length, 12);
    const asked = records.flatMap((r) => r.outcome.trace.filter((turn) => turn.human !== undefined));
    const waits = Object.values(report.humanWaits);
    expect(waits.reduce((sum, w) => sum + w.questions, 0)).toBe(asked.length);
    expect(waits.reduce((sum, w) => sum + w.answered, 0)).toBe(asked.filter((turn) => turn.human?.answer !== undefined).length);
  });
});
