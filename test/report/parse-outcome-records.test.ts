import { describe, expect, it } from 'vitest';
import { formatLineError } from '../../src/input/line-fields.js';
import { parseOutcomeRecords } from '../../src/report/parse-outcome-records.js';

const usage = { steps: 2, wallClockMs: 1000, inputTokens: 0, outputTokens: 0, cost: 0.01, toolErrors: 0 };
const line = (outcome: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ outcome: { steps: 2, usage, text: '', trace: [], ...outcome }, at: '2026-03-02T10:00:00Z', ...extra });

describe('parseOutcomeRecords', () => {
  it('reads each exit with what the report needs, and the questions put to people from the trace', () => {
    const text = [
      line({ exit: 'success', note: 'ok' }, { taskType: 'bugfix', independentCheck: true }),
      '',
      line({ exit: 'limit', limit: 'cost', source: 'budget', used: 2, max: 1 }),
      line({ exit: 'gave_up', note: 'no fixture' }, { impossible: true }),
      line({
        exit: 'need_help',
        question: 'Which currency?',
        waitedMs: 300000,
        trace: [
          { step: 1, human: { question: 'May I?', answer: 'yes', waitedMs: 60000, timedOut: false } },
          { step: 2, human: { question: 'Which currency?', waitedMs: 300000, timedOut: true } },
        ],
      }),
      line({ exit: 'need_help', question: 'Look at this', waitedMs: 90000 }),
      `  ${line({ exit: 'failed', error: { name: 'E', message: 'm', during: 'turn' } })}\r`,
    ].join('\n');
    const read = parseOutcomeRecords(`\uFEFF${text}`, 'o.jsonl');
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.runs.map((run) => [run.line, run.outcome.exit])).toEqual([
      [1, 'success'],
      [3, 'limit'],
      [4, 'gave_up'],
      [5, 'need_help'],
      [6, 'need_help'],
      [7, 'failed'],
    ]);
    expect(read.runs[0]).toMatchObject({ taskType: 'bugfix', independentCheck: true, at: Date.UTC(2026, 2, 2, 10), outcome: { steps: 2, usage: { wallClockMs: 1000, cost: 0.01 } } });
    expect(read.runs[1]?.outcome.limit).toBe('cost');
    expect(read.runs[2]).toMatchObject({ impossible: true, outcome: { note: 'no fixture' } });
    expect(read.runs[3]?.humanWaits).toEqual([
      { waitedMs: 60000, answered: true, timedOut: false },
      { waitedMs: 300000, answered: false, timedOut: true },
    ]);
    // a hand-off whose trace holds no exchange (a stop hook's record) counts its own wait once
    expect(read.runs[4]?.humanWaits).toEqual([{ waitedMs: 90000, answered: false, timedOut: true }]);
    expect(read.runs[4]?.outcome).toMatchObject({ note: 'Look at this', waitedMs: 90000 });
    expect(read.skipped).toEqual({ count: 0, lines: [] });
  });

  it('names the line and the field of the first bad line', () => {
    const cases: [string, string][] = [
      ['{"outcome": ', 'o.jsonl:2: not valid JSON'],
      ['[1]', 'o.jsonl:2: must be a JSON object, got an array'],
      [JSON.stringify({ at: '2026-03-02T10:00:00Z' }), 'o.jsonl:2: outcome: is missing'],
      [line({ exit: 'done' }), 'o.jsonl:2: outcome.exit: must be one of success, limit, gave_up, need_help, failed, got "done"'],
      [line({ exit: 'success', steps: -1 }), 'o.jsonl:2: outcome.steps: must be a non-negative integer, got -1'],
      [line({ exit: 'success', usage: { wallClockMs: 1 } }), 'o.jsonl:2: outcome.usage.cost: must be a non-negative finite number, got undefined'],
      [line({ exit: 'limit', limit: 'money' }), 'o.jsonl:2: outcome.limit: must be one of steps, wall_clock, tokens, cost, tool_errors, got "money"'],
      [line({ exit: 'gave_up' }), 'o.jsonl:2: outcome.note: must be a string, got undefined'],
      [line({ exit: 'need_help', question: 'q' }), 'o.jsonl:2: outcome.waitedMs: must be a non-negative finite number'],
      [line({ exit: 'success', trace: [{ human: { waitedMs: 'long', timedOut: false } }] }), 'o.jsonl:2: outcome.trace[0].human.waitedMs: must be'],
      [line({ exit: 'success' }, { at: '2026-03-02 10:00' }), 'o.jsonl:2: at: must be an ISO 8601 time with a zone'],
      [line({ exit: 'success' }, { at: undefined }), 'o.jsonl:2: at: is missing'],
      [line({ exit: 'success' }, { taskType: 7 }), 'o.jsonl:2: taskType: must be a non-empty string, got 7'],
      [line({ exit: 'success' }, { independentCheck: 'yes' }), 'o.jsonl:2: independentCheck: must be a boolean, got "yes"'],
    ];
    for (const [bad, message] of cases) {
      const read = parseOutcomeRecords(`${line({ exit: 'success', note: '' })}\n${bad}\n${line({ exit: 'success', note: '' })}`, 'o.jsonl');
      expect(read.ok, bad).toBe(false);
      if (!read.ok) expect(formatLineError(read.error), bad).toContain(message);
    }
  });

  it('with skipInvalid, skips and counts the bad lines and keeps the rest', () => {
    const good = line({ exit: 'success', note: '' });
    const text = [good, '{"truncated', good, ...Array.from({ length: 12 }, () => 'nope'), good].join('\n');
    const read = parseOutcomeRecords(text, 'o.jsonl', { skipInvalid: true });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.runs).toHaveLength(3);
    expect(read.skipped.count).toBe(13);
    expect(read.skipped.lines).toEqual([2, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(read.skipped.first).toMatchObject({ line: 2, message: expect.stringMatching(/^not valid JSON/) });
  });

  it('calls a file without records an error, and says so when every line was skipped', () => {
    const empty = parseOutcomeRecords('\n  \n', 'o.jsonl');
    expect(empty.ok === false && formatLineError(empty.error)).toBe('o.jsonl: the file holds no records');
    const allBad = parseOutcomeRecords('x\ny\n', 'o.jsonl', { skipInvalid: true });
    expect(allBad.ok === false && formatLineError(allBad.error)).toMatch(/^o\.jsonl:1: not valid JSON .*; no line could be read \(2 skipped\)$/);
  });
});
