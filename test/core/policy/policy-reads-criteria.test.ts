import { describe, expect, it } from 'vitest';
import { agentLoopPolicy } from '../../../src/core/policy/agent-loop-policy.js';
import { HOOK_STOP_POLICY } from '../../../src/core/policy/hook-stop-policy.js';
import { parseStopPolicy } from '../../../src/core/policy/parse-stop-policy.js';
import { policyReadsCriteria, readsCriteria } from '../../../src/core/policy/policy-reads-criteria.js';
import { SEED_STOP_POLICY } from '../../../src/core/policy/seed-stop-policy.js';
import type { StopPolicyDocument } from '../../../src/core/policy/stop-policy-document.js';
import { StopPolicyError } from '../../../src/core/policy/stop-policy-error.js';

describe('policyReadsCriteria', () => {
  it('is true for the presets that compare probabilities, false for the agent loop preset', () => {
    expect(policyReadsCriteria(SEED_STOP_POLICY)).toBe(true);
    expect(policyReadsCriteria(HOOK_STOP_POLICY)).toBe(true);
    expect(policyReadsCriteria(agentLoopPolicy({ maxSteps: 5 }))).toBe(false);
  });

  it('finds a criteria condition at any depth, and validates the policy first', () => {
    const nested = parseStopPolicy({
      version: 2,
      rules: [{ id: 'r', when: { atLeast: { count: 1, of: [{ not: { any: [{ criteria: { criterion: 'a', lt: 0.5 } }] } }] } }, then: { kind: 'continue' } }],
    });
    expect(policyReadsCriteria(nested)).toBe(true);
    expect(readsCriteria({ all: [{ tests: 'passed' }, { decisionModel: 'answered' }] })).toBe(false);
    expect(() => policyReadsCriteria({ version: 2, rules: [] } as unknown as StopPolicyDocument)).toThrow(StopPolicyError);
  });
});
