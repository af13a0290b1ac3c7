import { describe, expect, it } from 'vitest';
import { booleanQuestion, doneCriteria } from '../../src/decision-model/boolean-question.js';
import { createCompletionRequest } from '../../src/decision-model/completion-request.js';

const INPUT = {
  task: 'Add pagination',
  output: 'Added page and pageSize.',
  acceptance: ['page 2 returns items 21 to 40'],
  tests: { passed: false, failed: ['list > page 2'], ran: 14, durationMs: 812, command: 'npm test' },
};

describe('createCompletionRequest', () => {
  it('holds the task, the output, the acceptance list and the test summary, with the default questions', () => {
    const request = createCompletionRequest(INPUT);
    expect(request).toEqual({
      state: {
        task: 'Add pagination',
        output: 'Added page and pageSize.',
        acceptance: ['page 2 returns items 21 to 40'],
        tests: { passed: false, ran: 14, failed: ['list > page 2'] },
      },
      questions: doneCriteria,
    });
    expect(JSON.parse(JSON.stringify(request))).toEqual(request);
  });

  it('sends the questions it is given', () => {
    const questions = { docsUpdated: booleanQuestion('Are the docs updated?') };
    expect(createCompletionRequest({ ...INPUT, questions }).questions).toBe(questions);
  });

  it('copies the lists, so later changes by the caller do not leak in', () => {
    const acceptance = ['a'];
    const request = createCompletionRequest({ ...INPUT, acceptance });
    acceptance.push('b');
    expect(request.state.acceptance).toEqual(['a']);
  });

  it.each([
    ['task', { task: 3 }],
    ['output', { output: undefined }],
    ['acceptance', { acceptance: 'one' }],
    ['acceptance[1]', { acceptance: ['a', 2] }],
    ['tests.ran', { tests: { passed: true, failed: [], ran: -1 } }],
    ['questions', { questions: {} }],
  ])('throws a TypeError naming %s', (field, patch) => {
    expect(() => createCompletionRequest({ ...INPUT, ...patch } as never)).toThrow(TypeError);
    expect(() => createCompletionRequest({ ...INPUT, ...patch } as never)).toThrow(field.split('.')[0]!.split('[')[0]!);
  });
});
