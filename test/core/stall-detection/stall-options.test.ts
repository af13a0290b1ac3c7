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

describe('DEFAULT_STALL_OPTIONS', () => {
  it('are the thresholds the public detectors agree on, with no-progress and the call-alone rule off', () => {
    expect(DEFAULT_STALL_OPTIONS).toMatchObject({
      // OpenHands: 4 identical pairs; Goose, Crush and OpenHands: the same failure 3 times; OpenClaw-style polling longer.
      repeatedResult: { repeats: 4, failingRepeats: 3, pollingRepeats: 12 },
      // OpenHands SDK: stuck at the 4th identical failing call.
      repeatedFailingCall: { repeats: 4 },
      repeatedError: { repeats: 4, infrastructureRepeats: 8 },
      cycle: { maxPeriod: 4, repeats: 3 },
      revisit: { repeats: 6, window: 32 },
      // Crush: the same (call, result) more than 5 times among the last ones.
      repeatedPair: { repeats: 6, window: 30 },
      noProgress: false,
      repeatedCall: false,
      ignoredArguments: ['task_progress'],
    });
    expect(Object.keys(DEFAULT_STALL_OPTIONS.tools).sort()).toEqual(['BashOutput', 'TaskOutput', 'browser_action', 'command_status', 'process']);
  });

  it('turn a pattern off by default on with its own values, and keep the known tools under the ones given', () => {
    expect(resolveStallOptions({ noProgress: {} }).noProgress).toEqual({ repeats: 4, window: 16, nothingNew: true });
    expect(resolveStallOptions({ noProgress: { nothingNew: false } }).noProgress).toEqual({ repeats: 4, window: 16, nothingNew: false });
    expect(resolveStallOptions({ repeatedCall: { repeats: 6 } }).repeatedCall).toEqual({ repeats: 6 });
    expect(resolveStallOptions({ tools: { make_status: { polling: true } } }).tools).toMatchObject({ make_status: { polling: true }, BashOutput: { polling: true } });
    expect(() => resolveStallOptions({ noProgress: { nothingNew: 1 as never } })).toThrow(/noProgress\.nothingNew must be a boolean/);
    expect(() => resolveStallOptions({ repeatedPair: { window: 65 } })).toThrow(/repeatedPair\.window must be at most 64/);
    expect(() => resolveStallOptions({ ignoredArguments: [1] as never })).toThrow(/ignoredArguments/);
  });
});
