import { describe, expect, it } from 'vitest';
import { formatLabelledCaseError, isScoredCase, parseLabelledCases } from '../../src/calibrate/labelled-case.js';

describe('parseLabelledCases', () => {
  it('reads scored and unscored cases, skipping blank lines and unknown fields', () => {
    const text = [
      '{"probabilities":{"acceptanceCovered":0.9,"noOpenQuestions":0.7},"tests":{"passed":true,"failed":[],"ran":12},"label":"done","taskType":"bugfix","id":7,"extra":1}',
      '',
      '{"task":"Fix it","output":"Fixed.","acceptance":["works"],"label":"not_done"}',
    ].join('\n');
    const read = parseLabelledCases(text, 'cases.jsonl');
    if (!read.ok) throw new Error(formatLabelledCaseError(read.error));
    expect(read.lines).toEqual([1, 3]);
    expect(read.cases[0]).toEqual({
      label: 'done',
      id: '7',
      taskType: 'bugfix',
      tests: { passed: true, failed: [], ran: 12 },
      probabilities: { acceptanceCovered: 0.9, noOpenQuestions: 0.7 },
    });
    expect(isScoredCase(read.cases[0] as never)).toBe(true);
    expect(read.cases[1]).toEqual({ label: 'not_done', task: 'Fix it', output: 'Fixed.', acceptance: ['works'] });
    expect(isScoredCase(read.cases[1] as never)).toBe(false);
  });

  const bad: [string, string, string | undefined, RegExp][] = [
    ['{"label":"done","probabilities":{"a":0.5}', 'invalid JSON', undefined, /not valid JSON/],
    ['[1,2]', 'not an object', undefined, /must be a JSON object, got an array/],
    ['{"probabilities":{"a":0.5}}', 'no label', 'label', /is missing/],
    ['{"probabilities":{"a":0.5},"label":"yes"}', 'bad label', 'label', /"done" or "not_done"/],
    ['{"probabilities":{"a":1.5},"label":"done"}', 'probability above 1', 'probabilities.a', /finite number in \[0, 1\]/],
    ['{"probabilities":{"a":"high"},"label":"done"}', 'probability as text', 'probabilities.a', /"high"/],
    ['{"probabilities":[0.5],"label":"done"}', 'probabilities as array', 'probabilities', /JSON object/],
    ['{"label":"done"}', 'nothing to score', 'probabilities', /task" and "output/],
    ['{"probabilities":{"a":0.5},"label":"done","tests":{"passed":"yes","failed":[],"ran":1}}', 'tests.passed', 'tests.passed', /boolean/],
    ['{"probabilities":{"a":0.5},"label":"done","tests":{"passed":true,"failed":[],"ran":-1}}', 'tests.ran', 'tests.ran', /non-negative integer/],
    ['{"probabilities":{"a":0.5},"label":"done","tests":{"passed":true,"failed":[3],"ran":1}}', 'tests.failed', 'tests.failed[0]', /string/],
    ['{"probabilities":{"a":0.5},"label":"done","taskType":""}', 'empty task type', 'taskType', /empty/],
  ];
  for (const [line, name, field, message] of bad) {
    it(`names the line and field for ${name}`, () => {
      const read = parseLabelledCases(`{"probabilities":{"a":0.5},"label":"done"}\n${line}\n`, 'cases.jsonl');
      expect(read.ok).toBe(false);
      if (read.ok) return;
      expect(read.error.line).toBe(2);
      expect(read.error.field).toBe(field);
      expect(read.error.message).toMatch(message);
      expect(formatLabelledCaseError(read.error)).toMatch(/^cases\.jsonl:2: /);
    });
  }

  it('reports an empty file', () => {
    const read = parseLabelledCases('\n\n', 'empty.jsonl');
    expect(read.ok).toBe(false);
    if (!read.ok) expect(formatLabelledCaseError(read.error)).toBe('empty.jsonl: the file holds no cases');
  });
});
