import { tool } from 'ai';
import { z } from 'zod';
import type { TestEvidence } from '../../../src/core/test-evidence.js';

export const TASK = 'Fix the off-by-one in paginate() so the last partial page is returned.';
export const ACCEPTANCE = ['the last partial page is returned', 'an empty list gives no pages'];

export const PASS: TestEvidence = { passed: true, failed: [], ran: 31 };
export const NONE: TestEvidence = { passed: false, failed: [], ran: 0 };
export const FAIL: TestEvidence = {
  passed: false,
  failed: ['paginate > last page'],
  ran: 31,
  failures: [{ name: 'paginate > last page', message: 'expected [7] to equal []' }],
};

/** Decision-model answers: done, in the retry band, and below it. */
export const DONE = { acceptanceCovered: 0.93, noOpenQuestions: 0.9 };
export const UNSURE = { acceptanceCovered: 0.55, noOpenQuestions: 0.9 };
export const NOT_DONE = { acceptanceCovered: 0.2, noOpenQuestions: 0.9 };

/**
 * A workspace with an `edit` tool: no test runs until more than `silentEdits`
 * edits were made, and the suite passes once `fixesNeeded` edits were made.
 */
export function editWorkspace(fixesNeeded: number, silentEdits = 0) {
  let edits = 0;
  return {
    tools: {
      edit: tool({
        description: 'Edit a file',
        inputSchema: z.object({ step: z.number() }),
        execute: async () => {
          edits += 1;
          return `edit ${edits} applied`;
        },
      }),
    },
    readTests: (): TestEvidence => {
      if (edits <= silentEdits) return NONE;
      return edits >= fixesNeeded ? PASS : { passed: false, failed: ['paginate > last page'], ran: 31 };
    },
    edits: () => edits,
  };
}
