import { describe, expectTypeOf, it } from 'vitest';
import type { DecisionModelError } from '../../src/decision-model/decision-model-error.js';
import { decideStopHook, type StopHookInput } from '../../src/hosts/decide-stop-hook.js';

describe('decideStopHook types', () => {
  it("takes the host's input as it comes, the model's probabilities, an error, or nothing", () => {
    expectTypeOf<{ hook_event_name: 'Stop'; session_id: string; future_field: number[] }>().toExtend<StopHookInput>();
    expectTypeOf<{ stop_hook_active: 'yes' }>().not.toExtend<StopHookInput>();
    type Checked = Parameters<typeof decideStopHook>[1];
    expectTypeOf<{ probabilities: Record<string, number>; model: string }>().toExtend<Checked>();
    expectTypeOf<DecisionModelError>().toExtend<Checked>();
    expectTypeOf<undefined>().toExtend<Checked>();
    expectTypeOf<{ modelSaysDone: boolean }>().not.toExtend<Checked>();
  });

  it("returns Claude Code's Stop output, or undefined to let the stop go ahead", () => {
    expectTypeOf(decideStopHook).returns.toEqualTypeOf<{ readonly decision?: 'block'; readonly reason?: string; readonly systemMessage?: string } | undefined>();
  });
});
