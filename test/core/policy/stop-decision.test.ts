import { describe, expect, expectTypeOf, it } from 'vitest';
import { STOP_EXITS, type StopDecision, type StopExit } from '../../../src/core/policy/stop-decision.js';

describe('STOP_EXITS', () => {
  it('lists the five exits, which StopExit names', () => {
    expect(STOP_EXITS).toEqual(['success', 'limit', 'gave_up', 'need_help', 'failed']);
    expectTypeOf<StopExit>().toEqualTypeOf<'success' | 'limit' | 'gave_up' | 'need_help' | 'failed'>();
    expectTypeOf<Extract<StopDecision, { kind: 'stop' }>['exit']>().toEqualTypeOf<StopExit>();
    expectTypeOf<Extract<StopDecision, { kind: 'continue' }>['rule']>().toEqualTypeOf<string | null>();
  });
});
