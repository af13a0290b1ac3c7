import { describe, expect, it } from 'vitest';
import { DEFAULT_STALL_OPTIONS, resolveStallOptions } from '../../../src/core/stall-detection/stall-options.js';

describe('resolveStallOptions', () => {
  it('lays a pattern over its own defaults', () => {
    const options = resolveStallOptions({ repeatedError: { repeats: 3 }, cycle: false });
    expect(options.repeatedError).toEqual({ repeats: 3, infrastructureRepeats: 8 });
    expect(options.cycle).toBe(false);
    expect(options.repeatedResult).toEqual(DEFAULT_STALL_OPTIONS.repeatedResult);
    expect(resolveStallOptions()).toBe(DEFAULT_STALL_OPTIONS);
  });

  it('fails fast on a bad threshold', () => {
    expect(() => resolveStallOptions({ monologue: { repeats: 0 } })).toThrow(/monologue.repeats must be an integer >= 2/);
    expect(() => resolveStallOptions({ revisit: { repeats: 5, window: 100 } })).toThrow(/revisit.window/);
    expect(() => resolveStallOptions({ inferErrors: 'yes' as never })).toThrow(TypeError);
  });
});
