import { describe, expectTypeOf, it } from 'vitest';
import type { DoneSignal } from '../../src/core/combine-done-signal.js';
import { decideStopHook, isStopHookBlock, type StopHookCheck, type StopHookDecision } from '../../src/hosts/decide-stop-hook.js';
import { DecisionModelError } from '../../src/decision-model/decision-model-error.js';

describe('decideStopHook types', () => {
  it('takes a completion check as the completion check reports it, an error, or nothing', () => {
    type Reported = DoneSignal & { readonly probabilities: Readonly<Record<string, number>>; readonly model: string };
    expectTypeOf<Reported>().toExtend<StopHookCheck>();
    expectTypeOf<DecisionModelError>().toExtend<StopHookCheck>();
    expectTypeOf<undefined>().toExtend<StopHookCheck>();
    expectTypeOf<{ probabilities: Record<string, number> }>().not.toExtend<StopHookCheck>();
  });

  it('returns a block, a hand-off or undefined, narrowed by isStopHookBlock', () => {
    const decision = decideStopHook({}, undefined, { passed: true, failed: [], ran: 1 });
    expectTypeOf(decision).toEqualTypeOf<StopHookDecision>();
    if (isStopHookBlock(decision)) {
      expectTypeOf(decision.decision).toEqualTypeOf<'block'>();
      expectTypeOf(decision.reason).toEqualTypeOf<string>();
    } else if (decision !== undefined) {
      expectTypeOf(decision.systemMessage).toEqualTypeOf<string>();
    }
  });
});
