import { describe, expect, it } from 'vitest';
import { encodeCursorOutput } from '../../src/hosts/encode-cursor-output.js';
import { hostOutputProblems } from './host-output-schemas.js';

describe('encodeCursorOutput', () => {
  it('sends a block as followup_message, with the context appended', () => {
    const output = encodeCursorOutput({ decision: 'block', reason: 'Fix it.' }, { additionalContext: 'Task: x' });
    expect(output).toEqual({ followup_message: 'Fix it.\n\nTask: x' });
    expect(hostOutputProblems('cursor', output)).toEqual([]);
  });

  it('answers a hand-off and an allow with an empty object', () => {
    expect(encodeCursorOutput({ systemMessage: 'look' })).toEqual({});
    expect(encodeCursorOutput(undefined)).toEqual({});
    expect(hostOutputProblems('cursor', {})).toEqual([]);
  });

  it('is checked by a schema that knows only followup_message (the schema can fail)', () => {
    expect(hostOutputProblems('cursor', { decision: 'block', reason: 'r' })).not.toEqual([]);
  });
});
