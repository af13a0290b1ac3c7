import { expectTypeOf, test } from 'vitest';
import type { StallFinding } from '../../../src/core/stall-detection/stall-finding.js';
import type { StallPattern } from '../../../src/core/stall-detection/stall-pattern.js';
import type { StallOptionsInput } from '../../../src/core/stall-detection/stall-options.js';
import { observeStep } from '../../../src/core/stall-detection/observe-step.js';

test('stall types', () => {
  expectTypeOf<StallFinding['pattern']>().toEqualTypeOf<StallPattern>();
  expectTypeOf<'cycle'>().toMatchTypeOf<StallPattern>();
  expectTypeOf<'loop'>().not.toMatchTypeOf<StallPattern>();
  expectTypeOf(observeStep).returns.toHaveProperty('stall').toEqualTypeOf<StallFinding | undefined>();
  expectTypeOf<{ repeatedError: { repeats: 3 } }>().toMatchTypeOf<StallOptionsInput>();
  expectTypeOf<{ revisit: false }>().toMatchTypeOf<StallOptionsInput>();
  expectTypeOf<{ inferErrors: 'yes' }>().not.toMatchTypeOf<StallOptionsInput>();
});
