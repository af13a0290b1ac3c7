import { describe, expect, it } from 'vitest';
import { formatWait } from '../../src/report/format-wait.js';

describe('formatWait', () => {
  it('uses the unit that reads best', () => {
    expect([0, 999, 1500, 95_000, 119_999, 540_000, 7_199_999, 9_000_000].map(formatWait)).toEqual([
      '0 ms',
      '999 ms',
      '1.5 s',
      '95 s',
      '120 s',
      '9 min',
      '120 min',
      '2.5 h',
    ]);
  });
});
