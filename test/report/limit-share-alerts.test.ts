import { describe, expect, it } from 'vitest';
import { createSeededRandom } from '../../src/calibrate/seeded-random.js';
import { bucketStart, limitShareAlerts } from '../../src/report/limit-share-alerts.js';

const DAY = 86_400_000;
const START = Date.UTC(2026, 2, 2); // a Monday

/** `perDay` runs a day for `days` days, each a limit stop with the share `shareOf(day)`. */
function runs(days: number, perDay: number, shareOf: (day: number) => number, seed = 1, taskType = 'bugfix') {
  const random = createSeededRandom(seed);
  return Array.from({ length: days * perDay }, (_, i) => {
    const day = Math.floor(i / perDay);
    const limit = random() < shareOf(day);
    return {
      at: START + day * DAY + Math.floor(random() * DAY),
      taskType,
      outcome: limit ? { exit: 'limit' as const, steps: 5, usage: { wallClockMs: 0, cost: 0 }, limit: 'steps' as const } : { exit: 'success' as const, steps: 5, usage: { wallClockMs: 0, cost: 0 } },
    };
  });
}

describe('limitShareAlerts', () => {
  it('alerts on the day the share of limit stops jumps, and on no day before', () => {
    const report = limitShareAlerts(runs(30, 100, (day) => (day === 20 || day === 21 ? 0.3 : 0.08)), { bucket: 'day' });
    expect(report.settings).toEqual({ bucket: 'day', window: 7, alpha: 0.01, minBaselineRuns: 20 });
    const days = report.alerts.map((alert) => (Date.parse(alert.start) - START) / DAY);
    expect(days[0]).toBe(20);
    expect(days.every((day) => day >= 20 && day <= 22)).toBe(true);
    const alert = report.alerts[0];
    expect(alert).toMatchObject({ taskType: 'bugfix', start: '2026-03-22T00:00:00.000Z', end: '2026-03-23T00:00:00.000Z', runs: 100, byLimit: { steps: alert?.limitStops } });
    expect(alert?.share).toBeGreaterThan(alert?.bandHigh as number);
    expect(alert?.baselineRuns).toBe(700);
    expect(alert?.pValue).toBeLessThanOrEqual(0.01);
    const series = report.series.bugfix ?? [];
    expect(series).toHaveLength(30);
    expect(series.filter((bucket) => bucket.alert)).toHaveLength(report.alerts.length);
    // every bucket above its band alerts, and none within it
    for (const bucket of series) {
      if (bucket.baseline === null || bucket.share === null) continue;
      expect(bucket.alert, bucket.start).toBe(bucket.share > bucket.baseline.high);
    }
  });

  it('raises few false alerts on a steady share: at most about alpha of the tested buckets', () => {
    let tested = 0;
    let alerts = 0;
    for (let seed = 1; seed <= 20; seed += 1) {
      const report = limitShareAlerts(runs(60, 80, () => 0.1, seed), { bucket: 'day' });
      tested += (report.series.bugfix ?? []).filter((bucket) => bucket.baseline !== null).length;
      alerts += report.alerts.length;
    }
    expect(tested).toBe(20 * 59);
    expect(alerts / tested).toBeLessThanOrEqual(0.01);
  });

  it('does not test a bucket until its baseline holds minBaselineRuns runs', () => {
    const report = limitShareAlerts(runs(10, 5, (day) => (day < 5 ? 0 : 1)), { bucket: 'day', minBaselineRuns: 30 });
    const series = report.series.bugfix ?? [];
    expect(series.slice(0, 6).every((bucket) => bucket.baseline === null)).toBe(true);
    expect(series[6]?.baseline?.runs).toBe(30);
    // 25 runs without a limit stop and then 5 with, then only limit stops: an alert once tested
    expect(report.alerts.map((alert) => alert.start)).toContain(series[6]?.start);
  });

  it('keeps task types apart and counts a baseline over calendar buckets, empty ones too', () => {
    const mixed = [...runs(14, 50, () => 0.05, 3, 'bugfix'), ...runs(14, 50, (day) => (day >= 10 ? 0.5 : 0.05), 4, 'research')];
    const report = limitShareAlerts(mixed, { bucket: 'day', window: 3 });
    expect(Object.keys(report.series).sort()).toEqual(['bugfix', 'research']);
    expect(report.alerts.every((alert) => alert.taskType === 'research')).toBe(true);
    expect(report.alerts[0]?.baselineRuns).toBe(150);
    const gap = limitShareAlerts([...runs(3, 10, () => 0), ...runs(3, 10, () => 0).map((run) => ({ ...run, at: run.at + 5 * DAY }))], { bucket: 'day', window: 2, minBaselineRuns: 1 });
    const series = gap.series.bugfix ?? [];
    expect(series.map((bucket) => bucket.runs)).toEqual([10, 10, 10, 0, 0, 10, 10, 10]);
    expect(series[5]?.baseline).toBeNull(); // the two days before it were empty
    expect(series[6]?.baseline?.runs).toBe(10);
  });

  it('chooses the narrowest bucket giving at most 120, weeks starting on Monday (UTC)', () => {
    expect(limitShareAlerts(runs(3, 10, () => 0)).settings.bucket).toBe('hour');
    expect(limitShareAlerts(runs(30, 10, () => 0)).settings.bucket).toBe('day');
    expect(limitShareAlerts(runs(400, 1, () => 0)).settings.bucket).toBe('week');
    expect(new Date(bucketStart(Date.UTC(2026, 2, 8, 23, 59), 'week')).toISOString()).toBe('2026-03-02T00:00:00.000Z');
    expect(new Date(bucketStart(Date.UTC(2026, 2, 9, 0, 0), 'week')).toISOString()).toBe('2026-03-09T00:00:00.000Z');
    expect(new Date(bucketStart(Date.UTC(2026, 2, 9, 13, 30), 'hour')).toISOString()).toBe('2026-03-09T13:00:00.000Z');
  });

  it('refuses bad options and spans of more than 20,000 buckets', () => {
    const some = runs(2, 5, () => 0);
    expect(() => limitShareAlerts(some, { window: 0 })).toThrow(RangeError);
    expect(() => limitShareAlerts(some, { alpha: 0.7 })).toThrow(/alpha/);
    expect(() => limitShareAlerts(some, { minBaselineRuns: 0 })).toThrow(/minBaselineRuns/);
    expect(() => limitShareAlerts(some, { bucket: 'minute' as 'hour' })).toThrow(/bucket/);
    const wide = [some[0], { ...some[0], at: START + 1000 * DAY }] as typeof some;
    expect(() => limitShareAlerts(wide, { bucket: 'hour' })).toThrow(/24001 hours, more than 20000 buckets/);
    expect(limitShareAlerts([], {})).toEqual({ settings: { bucket: 'day', window: 7, alpha: 0.01, minBaselineRuns: 20 }, series: {}, alerts: [] });
  });
});
