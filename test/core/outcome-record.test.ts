import { describe, expect, it } from 'vitest';
import { emptyUsage } from '../../src/core/budget.js';
import { toOutcomeRecord } from '../../src/core/outcome-record.js';
import type { StopOutcome } from '../../src/core/stop-outcome.js';

const base = { steps: 3, usage: { ...emptyUsage(), steps: 3, wallClockMs: 4200, cost: 0.03 }, text: 'done', trace: [] };

describe('toOutcomeRecord', () => {
  it('keeps the outcome and the given fields, with the time as ISO 8601', () => {
    const outcome: StopOutcome = { ...base, exit: 'success', note: 'all green' };
    const record = toOutcomeRecord(outcome, { at: new Date(Date.UTC(2026, 2, 1, 12)), taskType: 'bugfix', independentCheck: true });
    expect(record).toEqual({ outcome, taskType: 'bugfix', independentCheck: true, at: '2026-03-01T12:00:00.000Z' });
    expect(JSON.parse(JSON.stringify(record))).toEqual(record);
  });

  it('leaves out the thrown cause of a failure, which is not plain data', () => {
    const cause = Object.assign(new Error('boom'), { self: {} as unknown });
    (cause.self as { loop?: unknown }).loop = cause;
    const outcome: StopOutcome = { ...base, exit: 'failed', error: { name: 'Error', message: 'boom', during: 'turn' }, cause };
    const record = toOutcomeRecord(outcome, { at: '2026-03-01T12:00:00+01:00', impossible: false });
    expect(record.outcome).not.toHaveProperty('cause');
    expect(record).toMatchObject({ outcome: { exit: 'failed', error: { message: 'boom' } }, impossible: false, at: '2026-03-01T12:00:00+01:00' });
    expect(() => JSON.stringify(record)).not.toThrow();
  });

  it('refuses a time without a zone, an invalid Date, an unknown exit and fields of the wrong type', () => {
    const outcome: StopOutcome = { ...base, exit: 'gave_up', note: 'no fixture' };
    expect(() => toOutcomeRecord(outcome, { at: '2026-03-01 12:00' })).toThrow(/ISO 8601 time with a zone/);
    expect(() => toOutcomeRecord(outcome, { at: '2026-03-01T12:00:00' })).toThrow(TypeError);
    expect(() => toOutcomeRecord(outcome, { at: '2026-13-45T12:00:00Z' })).toThrow(TypeError);
    expect(() => toOutcomeRecord(outcome, { at: new Date(Number.NaN) })).toThrow(/invalid Date/);
    expect(() => toOutcomeRecord({ ...outcome, exit: 'done' } as unknown as StopOutcome, { at: new Date(0) })).toThrow(/exit/);
    expect(() => toOutcomeRecord(outcome, { at: new Date(0), taskType: ' ' })).toThrow(/taskType/);
    expect(() => toOutcomeRecord(outcome, { at: new Date(0), impossible: 'yes' as unknown as boolean })).toThrow(/impossible/);
  });
});
