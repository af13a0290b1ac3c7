import { describe, expect, it } from 'vitest';
import { HOOK_STOP_POLICY } from '../../src/core/policy/hook-stop-policy.js';
import { DEFAULT_POLICY } from '../../src/core/stop-policy.js';
import { hookPolicy } from '../../src/hosts/hook-policy.js';
import { parseStopwiseConfig } from '../../src/hosts/stopwise-config.js';

const tests = { command: 'npm', args: ['test'] };

describe('a stop policy document in stopwise.config.json', () => {
  it('is read inline, told from the four numbers by its rules, and is what the hook decides with', () => {
    const parsed = parseStopwiseConfig({ tests, policy: JSON.parse(JSON.stringify(HOOK_STOP_POLICY)) });
    expect(parsed).toMatchObject({ ok: true, config: { policy: DEFAULT_POLICY, stopPolicy: HOOK_STOP_POLICY } });
    if (parsed.ok) expect(hookPolicy(parsed.config)).toEqual(HOOK_STOP_POLICY);
    const numbers = parseStopwiseConfig({ tests, policy: { maxSteps: 5 }, maxConsecutiveBlocks: 2 });
    expect(numbers.ok).toBe(true);
    if (numbers.ok) expect(numbers.config.stopPolicy).toBeUndefined();
    if (numbers.ok) expect(hookPolicy(numbers.config).rules[0]?.when).toEqual({ limit: { of: 'steps', max: 5 } });
  });

  it('is refused with the JSON path of the problem under "policy"', () => {
    const bad = { version: 1, rules: [{ id: 'r', when: { criteria: { gte: 1.5 } }, then: { kind: 'stop', exit: 'success', reason: 'ok' } }] };
    expect(parseStopwiseConfig({ tests, policy: bad })).toEqual({ ok: false, message: 'policy.rules[0].when.criteria.gte: must be a probability in [0, 1], got 1.5' });
    expect(parseStopwiseConfig({ tests, policy: { rules: [] } })).toEqual({ ok: false, message: 'policy.version: must be 1, got undefined' });
  });

  it('takes taskType only when a rule of the document reads it', () => {
    const typed = { version: 1, rules: [{ id: 'r', when: { taskType: 'bugfix' }, then: { kind: 'stop', exit: 'success', reason: 'ok' } }] };
    expect(parseStopwiseConfig({ tests, policy: typed, taskType: 'bugfix' })).toMatchObject({ ok: true, config: { taskType: 'bugfix' } });
    expect(parseStopwiseConfig({ tests, policy: typed, taskType: 'docs' })).toEqual({
      ok: false,
      message: 'taskType: no rule of the policy reads task type "docs" (a { "taskType": ... } condition); it has bugfix',
    });
  });
});
