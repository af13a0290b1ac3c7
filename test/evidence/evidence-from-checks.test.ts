import { describe, expect, it } from 'vitest';
import { decideCompletionAction } from '../../src/core/decide-completion-action.js';
import { evidenceFromChecks } from '../../src/evidence/evidence-from-checks.js';
import { expectInvariants } from './fixtures.js';

describe('evidenceFromChecks', () => {
  it('turns each failed check into a failed test named check:<name>', () => {
    const evidence = evidenceFromChecks([
      { name: 'git-clean', ok: false, detail: '1 changed: M a.ts' },
      { name: 'files-exist', ok: true, detail: 'all 2 exist' },
      { name: 'typecheck', ok: false, detail: 'exit code 2' },
    ]);
    expectInvariants(evidence);
    expect(evidence).toMatchObject({ passed: false, ran: 3, failed: ['check:git-clean', 'check:typecheck'] });
    expect(evidence.failures[1]).toEqual({ name: 'check:typecheck', message: 'exit code 2' });
  });

  it('passes when every check passed, and is no evidence at all with no checks', () => {
    expect(evidenceFromChecks([{ name: 'a', ok: true, detail: '' }])).toMatchObject({ passed: true, ran: 1, failed: [] });
    expect(evidenceFromChecks([])).toMatchObject({ passed: false, ran: 0 });
  });

  it('makes the action table treat a failed check like a failed test', () => {
    const evidence = evidenceFromChecks([{ name: 'git-clean', ok: false, detail: 'dirty' }]);
    const action = decideCompletionAction({ done: 0.2 }, evidence, { step: 1, recentFingerprints: [] });
    expect(action).toMatchObject({ action: 'retry', reason: 'tests_failed', values: { failed: ['check:git-clean'] } });
  });

  it('rejects a malformed check', () => {
    expect(() => evidenceFromChecks([{ name: 'x' } as never])).toThrow(TypeError);
  });
});
