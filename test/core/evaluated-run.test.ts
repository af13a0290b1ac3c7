import { describe, expect, it } from 'vitest';
import { emptyUsage } from '../../src/core/budget.js';
import { DEFAULT_TASK_TYPE, groupRunsByTaskType } from '../../src/core/evaluated-run.js';

const outcome = { exit: 'success' as const, steps: 1, usage: emptyUsage() };

describe('groupRunsByTaskType', () => {
  it('groups in first-seen order, runs without a task type under the default', () => {
    const groups = groupRunsByTaskType([{ outcome, taskType: 'b' }, { outcome }, { outcome, taskType: 'b' }]);
    expect([...groups.keys()]).toEqual(['b', DEFAULT_TASK_TYPE]);
    expect(groups.get('b')).toHaveLength(2);
  });

  it('names the index and the field of a malformed run', () => {
    expect(() => groupRunsByTaskType([{ outcome, taskType: 3 as unknown as string }])).toThrow('runs[0].taskType must be a string');
    expect(() => groupRunsByTaskType([{ outcome: null as never }])).toThrow('runs[0].outcome must be an object');
    expect(() => groupRunsByTaskType([{ outcome, independentCheck: 1 as unknown as boolean }])).toThrow('runs[0].independentCheck');
  });
});
