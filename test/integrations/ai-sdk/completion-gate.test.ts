// completionGate on AI SDK 6, the version installed as `ai`: it has no steering, so the gate refuses to be
// built and says what to use instead. Its behaviour inside AI SDK 7's loop is tested in ai-v7/.
import { describe, expect, it } from 'vitest';
import { completionGate } from '../../../src/integrations/ai-sdk/index.js';
import { createScriptedClient } from '../../../src/testing/index.js';

describe('completionGate on AI SDK 6', () => {
  it('throws a TypeError that points to runGenerateTextCompletionLoop', () => {
    const build = () =>
      completionGate({ client: createScriptedClient([]), task: 'T', acceptance: [], readTests: () => ({ passed: true, failed: [], ran: 1 }) });
    expect(build).toThrow(TypeError);
    expect(build).toThrow(/needs AI SDK 7 .*use runGenerateTextCompletionLoop/);
  });
});
