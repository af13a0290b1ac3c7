import { describe, expect, it } from 'vitest';
import { createProgressReporter } from '../../src/cli/progress-reporter.js';

const at = (completed: number, total = 20) => ({ total, completed, fromCache: 2, failed: 1 });

describe('createProgressReporter', () => {
  it('redraws one bar in place on a terminal', () => {
    const written: string[] = [];
    const progress = createProgressReporter({ write: (text) => written.push(text), isTTY: true, columns: 70 }, 'scoring');
    progress.update(at(5));
    progress.update(at(20));
    progress.finish();
    expect(written[0]).toBe('\rscoring [#####---------------] 5/20 (2 from cache, 1 failed)');
    expect(written[1]).toBe('\rscoring [####################] 20/20 (2 from cache, 1 failed)');
    expect(written[2]).toBe('\n');
  });

  it('writes plain lines about every tenth of the way elsewhere', () => {
    const written: string[] = [];
    const progress = createProgressReporter({ write: (text) => written.push(text) });
    for (let completed = 1; completed <= 20; completed++) progress.update(at(completed));
    progress.finish();
    expect(written.every((line) => line.endsWith('\n') && !line.includes('\r'))).toBe(true);
    expect(written[0]).toBe('scoring: 1/20 (2 from cache, 1 failed)\n');
    expect(written.at(-1)).toBe('scoring: 20/20 (2 from cache, 1 failed)\n');
    expect(written).toHaveLength(11);
  });

  it('closes with the last count when the run stopped early', () => {
    const written: string[] = [];
    const progress = createProgressReporter({ write: (text) => written.push(text) });
    progress.update(at(1));
    progress.update(at(2));
    progress.finish();
    expect(written).toEqual(['scoring: 1/20 (2 from cache, 1 failed)\n', 'scoring: 2/20 (2 from cache, 1 failed)\n']);
  });
});
