import { expectTypeOf, test } from 'vitest';
import type { StopState as EngineStopState } from '../../../src/index.js';
import type { RouteStopState, StopState } from '../../../src/integrations/langgraph/index.js';
import type { StopEngineState } from '../../../src/integrations/langgraph/index.js';

test('the deprecated StopState of stopwise/langgraph is RouteStopState, not the engine state of stopwise', () => {
  expectTypeOf<StopState>().toEqualTypeOf<RouteStopState>();
  expectTypeOf<RouteStopState>().not.toEqualTypeOf<EngineStopState>();
  expectTypeOf<StopEngineState['stopState']>().toEqualTypeOf<EngineStopState | null>();
});
