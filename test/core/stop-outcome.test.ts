import { describe, expect, it } from 'vitest';
import { emptyUsage } from '../../src/core/budget.js';
import { stopReasonOf, type StopOutcome } from '../../src/core/stop-outcome.js';

const base = { steps: 3, usage: emptyUsage(), text: '', trace: [] };

describe('stopReasonOf', () => {
  it('is the exit, with the limit kind for a limit', () => {
    const outcomes: StopOutcome[] = [
      { ...base, exit: 'success', note: '' },
      { ...base, exit: 'limit', limit: 'steps', source: 'budget', key: 'maxSteps', used: 3, max: 3 },
      { ...base, exit: 'limit', limit: 'tokens', source: 'provider', used: 90, max: null },
      { ...base, exit: 'gave_up', note: 'offline' },
      { ...base, exit: 'need_help', question: 'which?', waitedMs: 0 },
      { ...base, exit: 'failed', error: { name: 'Error', message: 'x', during: 'turn' } },
    ];
    expect(outcomes.map(stopReasonOf)).toEqual(['success', 'limit:steps', 'limit:tokens', 'gave_up', 'need_help', 'failed']);
  });
});
