import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { stopPolicySchema } from '../../src/core/policy/stop-policy-schema.js';
import { formatPath, formatSchemaProblems, schemaProblems } from '../../src/core/schema-issues.js';
import { stopPolicyNumbersSchema } from '../../src/core/stop-policy.js';

const problemsOf = (schema: z.ZodMiniType, value: unknown) => {
  const parsed = schema.safeParse(value, { reportInput: true });
  return parsed.success ? [] : schemaProblems(schema, parsed.error.issues, value);
};
const policy = (then: unknown, when: unknown = { always: true }) => ({ version: 2, rules: [{ id: 'r', when, then }] });

describe('schemaProblems', () => {
  it('explains a tagged union through the branch its tag names', () => {
    expect(problemsOf(stopPolicySchema, policy({ kind: 'retry' }))).toEqual([{ path: 'rules[0].then.reason', message: 'required (a string)' }]);
    expect(problemsOf(stopPolicySchema, policy({ kind: 'stop', reason: 'x' }))).toEqual([{ path: 'rules[0].then.exit', message: 'required (one of "success", "limit", "gave_up", "need_help", "failed")' }]);
    expect(problemsOf(stopPolicySchema, policy({ kind: 'stpo', reason: 'x' }))).toEqual([
      { path: 'rules[0].then.kind', message: 'must be one of "continue", "retry", "stop", got "stpo" (did you mean "stop"?)' },
    ]);
  });

  it('names the fields an object branch of a union knows', () => {
    const stall = { stall: { detector: 'step_history', rounds: 3 } };
    expect(problemsOf(stopPolicySchema, policy({ kind: 'continue' }, stall))).toEqual([
      { path: 'rules[0].when.stall.rounds', message: 'unknown field; expected one of detector, patterns, options' },
    ]);
    const options = { stall: { detector: 'step_history', options: { repeatedResult: { repaets: 2 } } } };
    expect(problemsOf(stopPolicySchema, policy({ kind: 'continue' }, options))).toEqual([
      { path: 'rules[0].when.stall.options.repeatedResult.repaets', message: 'unknown field (did you mean "repeats"?)' },
    ]);
  });

  it('says an empty text once', () => {
    expect(problemsOf(stopPolicySchema, policy({ kind: 'continue' }, { taskType: '' }))).toEqual([{ path: 'rules[0].when.taskType', message: 'must not be empty, got ""' }]);
    expect(problemsOf(stopPolicySchema, policy({ kind: 'continue' }, { taskType: '  ' }))).toEqual([{ path: 'rules[0].when.taskType', message: 'must be a non-blank text, got "  "' }]);
  });

  it('reports every problem once, each with its path', () => {
    const problems = problemsOf(stopPolicyNumbersSchema, { doneThreshold: 2, maxSteps: 0.5, stallRound: 3 });
    expect(problems).toEqual([
      { path: 'doneThreshold', message: 'must be at most 1, got 2' },
      { path: 'maxSteps', message: 'expected an integer, got 0.5' },
      { path: 'stallRound', message: 'unknown field (did you mean "stallRounds"?)' },
    ]);
    expect(formatSchemaProblems([...problems, { path: '', message: 'whole document' }])).toBe(
      'doneThreshold: must be at most 1, got 2\nmaxSteps: expected an integer, got 0.5\nstallRound: unknown field (did you mean "stallRounds"?)\nwhole document',
    );
    expect(problemsOf(stopPolicyNumbersSchema, { midBandLow: 0.9 })).toEqual([{ path: 'midBandLow', message: 'must not be above doneThreshold (0.9 > 0.7)' }]);
  });
});

describe('formatPath', () => {
  it('writes keys with dots and indexes in brackets', () => {
    expect(formatPath(['rules', 1, 'when', 'all', 0])).toBe('rules[1].when.all[0]');
    expect(formatPath([0, 'a'])).toBe('[0].a');
    expect(formatPath([])).toBe('');
  });
});
