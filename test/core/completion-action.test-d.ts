import { describe, expectTypeOf, it } from 'vitest';
import type { CompletionAction, EvidenceAction } from '../../src/core/completion-action.js';
import { decideCompletionAction } from '../../src/core/decide-completion-action.js';

describe('CompletionAction types', () => {
  it('narrows on action and reason', () => {
    const action = decideCompletionAction({}, { passed: true, failed: [], ran: 1 }, { step: 1, recentFingerprints: [] });
    expectTypeOf(action).toEqualTypeOf<CompletionAction>();
    if (action.action === 'retry') {
      expectTypeOf(action.reason).toEqualTypeOf<'no_tests_ran' | 'tests_failed' | 'criteria_mid_band'>();
    }
    if (action.action === 'handoff_human') {
      expectTypeOf(action.reason).toEqualTypeOf<'hard_cap' | 'stalled' | 'evidence_contradicts_model' | 'criteria_low'>();
    }
    if (action.reason === 'tests_failed' || action.reason === 'evidence_contradicts_model') {
      expectTypeOf(action.values.failed).toEqualTypeOf<readonly string[]>();
    }
    if (action.reason === 'hard_cap') {
      expectTypeOf(action.rule).toEqualTypeOf<1>();
      expectTypeOf(action.values).toHaveProperty('maxSteps');
    }
    if (action.action === 'stop_done') expectTypeOf(action.values.lowestProbability).toBeNumber();
  });

  it('names the actions that evidence and loop state decide alone: rules 1 to 3', () => {
    expectTypeOf<EvidenceAction['reason']>().toEqualTypeOf<'hard_cap' | 'stalled' | 'no_tests_ran'>();
    expectTypeOf<EvidenceAction['rule']>().toEqualTypeOf<1 | 2 | 3>();
  });

  it('keeps actions readonly', () => {
    const action = {} as CompletionAction;
    // @ts-expect-error actions are readonly
    action.action = 'stop_done';
  });
});
