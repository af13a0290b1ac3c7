import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_FAILURE_MESSAGE_LENGTH, addFailure, createTally, finishTally, trimMessage } from '../../src/evidence/report-evidence.js';

describe('finishTally', () => {
  it('never passes with failures, with a reason, or with nothing run', () => {
    const failing = createTally();
    failing.ran = 3;
    addFailure(failing, 'a', 'boom', new Set());
    expect(finishTally(failing)).toMatchObject({ passed: false, failed: ['a'], ran: 3, total: 3 });
    const incomplete = createTally();
    incomplete.ran = 2;
    incomplete.reason = 'incomplete';
    expect(finishTally(incomplete).passed).toBe(false);
    expect(finishTally(createTally())).toMatchObject({ passed: false, ran: 0, failed: [] });
    const fine = createTally();
    fine.ran = 1;
    fine.skipped = 2;
    expect(finishTally(fine)).toEqual({ passed: true, failed: [], ran: 1, skipped: 2, total: 3, failures: [] });
  });

  it('counts a failed test as run even when the reader did not', () => {
    const tally = createTally();
    addFailure(tally, 'a', '', new Set());
    expect(finishTally(tally)).toMatchObject({ ran: 1, total: 1 });
  });

  it('keeps a failed name once, with its first message', () => {
    const tally = createTally();
    const seen = new Set<string>();
    tally.ran = 2;
    addFailure(tally, 'a', 'first', seen);
    addFailure(tally, 'a', 'second', seen);
    expect(finishTally(tally).failures).toEqual([{ name: 'a', message: 'first' }]);
  });
});

describe('trimMessage', () => {
  it('trims whitespace and cuts long messages with an ellipsis', () => {
    expect(trimMessage('  boom \n')).toBe('boom');
    const cut = trimMessage('y'.repeat(5000));
    expect(cut).toHaveLength(MAX_FAILURE_MESSAGE_LENGTH);
    expect(cut.endsWith('…')).toBe(true);
  });

  it('never cuts a surrogate pair in half', () => {
    expect(trimMessage(`${'x'.repeat(998)}🎉🎉`)).toBe(`${'x'.repeat(998)}…`);
    expect(trimMessage(`${'x'.repeat(997)}🎉🎉`)).toBe(`${'x'.repeat(997)}🎉…`);
    const wellFormed = fc.string({ unit: 'grapheme', maxLength: 80 });
    fc.assert(
      fc.property(wellFormed, fc.integer({ min: 1, max: 40 }), (text, max) => {
        const cut = trimMessage(text, max);
        expect(cut.length).toBeLessThanOrEqual(max);
        expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(cut)).toBe(false);
        if (cut.endsWith('…') && cut !== text.trim()) expect(text.trim().startsWith(cut.slice(0, -1).trimEnd())).toBe(true);
        else expect(cut).toBe(text.trim());
      }),
      { numRuns: 500 },
    );
  });
});
