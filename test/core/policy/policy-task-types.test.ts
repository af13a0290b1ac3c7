import { describe, expect, it } from 'vitest';
import { HOOK_STOP_POLICY } from '../../../src/core/policy/hook-stop-policy.js';
import { parseStopPolicy } from '../../../src/core/policy/parse-stop-policy.js';
import { policyTaskTypes } from '../../../src/core/policy/policy-task-types.js';

const stop = { kind: 'stop', exit: 'success', reason: 'ok' } as const;

describe('policyTaskTypes', () => {
  it('lists the task types a document reads, once each, in document order, at any depth', () => {
    const policy = parseStopPolicy({
      version: 2,
      rules: [
        { id: 'a', when: { all: [{ taskType: 'bugfix' }, { not: { taskType: 'docs' } }] }, then: stop },
        { id: 'b', when: { atLeast: { count: 1, of: [{ any: [{ taskType: 'feature' }, { taskType: 'bugfix' }] }] } }, then: stop },
      ],
    });
    expect(policyTaskTypes(policy)).toEqual(['bugfix', 'docs', 'feature']);
    expect(policyTaskTypes(HOOK_STOP_POLICY)).toEqual([]);
  });
});
