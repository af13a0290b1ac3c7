import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../src/core/format-duration.js';

describe('formatDuration', () => {
  it.each([
    [0, '0 ms'],
    [50, '50 ms'],
    [300, '300 ms'],
    [999.4, '999 ms'],
    [999.6, '1 s'],
    [1000, '1 s'],
    [1500, '1.5 s'],
    [1549, '1.5 s'],
    [2000, '2 s'],
    [8000, '8 s'],
    [20_000, '20 s'],
    [30_000, '30 s'],
    [140_000, '140 s'],
    [125_500, '125.5 s'],
  ])('%d ms reads %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
