import { describe, expect, it } from 'vitest';
import { blockContext } from '../../src/hosts/block-context.js';

const config = { task: 'Reject expired tokens', acceptance: ['expired tokens get a 401', 'the log names the token id'] };
const block = { decision: 'block', reason: 'checks below the threshold' } as const;
const green = { passed: true, failed: [], ran: 4 };

describe('blockContext', () => {
  it('gives the task and the acceptance criteria on a block for the criteria', () => {
    expect(blockContext(config, block, green)).toBe(
      'Task: Reject expired tokens\nAcceptance criteria:\n- expired tokens get a 401\n- the log names the token id',
    );
    expect(blockContext({ task: '', acceptance: ['a'] }, block, green)).toBe('Acceptance criteria:\n- a');
    expect(blockContext({ task: 't', acceptance: [] }, block, green)).toBe('Task: t');
  });

  it('gives nothing on a block for failing or missing tests, on a hand-off, on an allow, or with nothing configured', () => {
    expect(blockContext(config, block, { passed: false, failed: ['a'], ran: 4 })).toBeUndefined();
    expect(blockContext(config, block, { passed: true, failed: [], ran: 0 })).toBeUndefined();
    expect(blockContext(config, { systemMessage: 'look' }, green)).toBeUndefined();
    expect(blockContext(config, undefined, green)).toBeUndefined();
    expect(blockContext({ task: '', acceptance: [] }, block, green)).toBeUndefined();
  });
});
