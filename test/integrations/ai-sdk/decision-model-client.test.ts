// decisionModelClient on AI SDK 6, the version installed as `ai`: it has no decision models, so the client
// refuses to be built and names the clients that work. Its behaviour on AI SDK 7 is tested in ai-v7/.
import { describe, expect, it } from 'vitest';
import { decisionModelClient } from '../../../src/integrations/ai-sdk/index.js';

describe('decisionModelClient on AI SDK 6', () => {
  it('throws a TypeError that names the clients to use instead', () => {
    expect(() => decisionModelClient('judge-1')).toThrow(/needs AI SDK 7 .*createSystemOneClient .*createLogprobClient/);
  });
});
