import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStopPolicy } from '../../src/core/stop-policy.js';
import { DecisionModelError } from '../../src/decision-model/decision-model-error.js';
import { decideStopHook, HUMAN_REVIEW_NOTE, isStopHookBlock, type StopHookCheck } from '../../src/hosts/decide-stop-hook.js';

const stop = { hook_event_name: 'Stop', session_id: 's', stop_hook_active: false } as const;
const reentry = { ...stop, stop_hook_active: true } as const;
const red = { passed: false, failed: ['auth > rejects expired token', 'auth > refreshes'], ran: 40 };
const green = { passed: true, failed: [], ran: 40 };
const none = { passed: true, failed: [], ran: 0 };
const saysDone: StopHookCheck = { modelSaysDone: true, probabilities: { acceptanceCovered: 0.93, noOpenQuestions: 0.88 } };
const midBand: StopHookCheck = { modelSaysDone: false, probabilities: { acceptanceCovered: 0.55, noOpenQuestions: 0.91 } };
const down = new DecisionModelError('server', 'HTTP 500 from 127.0.0.1', { status: 500 });

describe('decideStopHook: the table of the stop hook', () => {
  it('allows an event that is present and is not a stop event, whatever the evidence', () => {
    expect(decideStopHook({ hook_event_name: 'PostToolUse' }, undefined, red)).toBeUndefined();
    expect(decideStopHook({ hook_event_name: 'beforeShellExecution' }, undefined, none)).toBeUndefined();
  });

  it('treats an input with no event name as a stop', () => {
    expect(decideStopHook({}, undefined, none)).toMatchObject({ decision: 'block' });
  });

  it('blocks failing tests, naming them, when the model does not say done and it is not a re-entry', () => {
    const decision = decideStopHook(stop, midBand, red);
    expect(decision).toEqual({
      decision: 'block',
      reason: '2 tests failed: auth > rejects expired token; auth > refreshes. Fix them and run the tests again before you stop.',
    });
  });

  it('blocks failing tests when no model was asked', () => {
    expect(decideStopHook(stop, undefined, red)).toMatchObject({ decision: 'block', reason: expect.stringContaining('auth > refreshes') });
  });

  it('still blocks failing tests when the model is down, and warns the person', () => {
    const decision = decideStopHook(stop, down, red);
    expect(decision).toMatchObject({ decision: 'block', reason: expect.stringContaining('2 tests failed') });
    expect(decision?.systemMessage).toContain('HTTP 500');
  });

  it('hands off with the human review note when the tests fail while the model says done (re-entered or not)', () => {
    for (const input of [stop, reentry]) {
      const decision = decideStopHook(input, saysDone, red);
      expect(isStopHookBlock(decision)).toBe(false);
      expect(decision?.systemMessage).toContain(HUMAN_REVIEW_NOTE);
      expect(decision?.systemMessage).toContain('auth > rejects expired token');
    }
  });

  it('blocks once when no tests ran, with "no tests ran, run the suite"', () => {
    const decision = decideStopHook(stop, undefined, none);
    expect(decision).toMatchObject({ decision: 'block' });
    expect((decision as { reason: string }).reason).toMatch(/^No tests ran, run the suite/);
  });

  it('counts a failed result with zero tests as "no tests ran"', () => {
    expect(decideStopHook(stop, undefined, { passed: false, failed: [], ran: 0 })).toMatchObject({
      reason: expect.stringMatching(/^No tests ran/),
    });
  });

  it('hands off on a re-entry while tests still fail or none ran: never two blocks in a row', () => {
    const failing = decideStopHook(reentry, midBand, red);
    expect(isStopHookBlock(failing)).toBe(false);
    expect(failing?.systemMessage).toMatch(/still fail.*auth > refreshes.*A person should look/);
    const missing = decideStopHook(reentry, undefined, none);
    expect(isStopHookBlock(missing)).toBe(false);
    expect(missing?.systemMessage).toMatch(/no tests ran/);
  });

  it('allows passing tests when the checks meet the threshold', () => {
    expect(decideStopHook(stop, saysDone, green)).toBeUndefined();
  });

  it('allows passing tests on a re-entry, ignoring a judgement below the threshold', () => {
    expect(decideStopHook(reentry, midBand, green)).toBeUndefined();
    expect(decideStopHook(reentry, undefined, green)).toBeUndefined();
  });

  it('allows passing tests when no decision model is configured: the evidence alone decides', () => {
    expect(decideStopHook(stop, undefined, green)).toBeUndefined();
  });

  it('blocks passing tests whose checks are below the threshold, quoting the probabilities', () => {
    const decision = decideStopHook(stop, midBand, green);
    expect(decision).toMatchObject({ decision: 'block' });
    expect((decision as { reason: string }).reason).toContain('acceptanceCovered = 0.55, noOpenQuestions = 0.91');
    expect((decision as { reason: string }).reason).toContain('must reach 0.7');
  });

  it('quotes the policy threshold it was given', () => {
    const decision = decideStopHook(stop, midBand, green, { policy: createStopPolicy({ doneThreshold: 0.95 }) });
    expect((decision as { reason: string }).reason).toContain('must reach 0.95');
  });

  it('allows passing tests with a message when the model is down: no fake success, no trap', () => {
    const decision = decideStopHook(stop, down, green);
    expect(isStopHookBlock(decision)).toBe(false);
    expect(decision?.systemMessage).toMatch(/tests pass, but the decision model could not be asked \(HTTP 500.*A person should look/);
  });

  it('reads re-entry from Cursor loop_count when there is no stop_hook_active', () => {
    expect(isStopHookBlock(decideStopHook({ hook_event_name: 'stop', loop_count: 0 }, undefined, red))).toBe(true);
    expect(isStopHookBlock(decideStopHook({ hook_event_name: 'stop', loop_count: 1 }, undefined, red))).toBe(false);
  });

  it('lets the caller decide re-entry instead of the host flag', () => {
    expect(isStopHookBlock(decideStopHook(reentry, undefined, red, { reEntered: false }))).toBe(true);
    expect(isStopHookBlock(decideStopHook(stop, undefined, red, { reEntered: true }))).toBe(false);
  });

  it('hands off at the step cap and on a stall before anything else, given the loop', () => {
    const capped = decideStopHook(stop, undefined, red, { loop: { step: 20, recentFingerprints: [] } });
    expect(capped?.systemMessage).toMatch(/step cap \(20 stop attempts in a row, cap 20\)/);
    const stalled = decideStopHook(stop, undefined, green, { loop: { step: 3, recentFingerprints: ['a', 'a', 'a'] } });
    expect(stalled?.systemMessage).toMatch(/last 3 stop attempts were identical/);
    expect(decideStopHook(stop, undefined, red, { loop: { step: 2, recentFingerprints: ['a', 'b'] } })).toMatchObject({ decision: 'block' });
  });

  it('throws a TypeError for malformed evidence instead of deciding on it', () => {
    expect(() => decideStopHook(stop, undefined, { passed: 'yes', failed: [], ran: 1 } as never)).toThrow(TypeError);
  });

  it('never lets failing or missing tests stop silently, and never blocks twice on a re-entry (property)', () => {
    const checks = fc.oneof(
      fc.constant(undefined),
      fc.constant(down),
      fc.record({ modelSaysDone: fc.boolean(), probabilities: fc.dictionary(fc.string(), fc.double({ min: 0, max: 1, noNaN: true })) }),
    );
    const evidence = fc.record({ passed: fc.boolean(), failed: fc.array(fc.string(), { maxLength: 3 }), ran: fc.nat(50) });
    fc.assert(
      fc.property(checks, evidence, fc.boolean(), (checked, tests, reEntered) => {
        const decision = decideStopHook({ hook_event_name: 'Stop' }, checked, tests, { reEntered });
        const notPassing = tests.ran === 0 || !tests.passed || tests.failed.length > 0;
        if (notPassing) expect(decision).toBeDefined();
        if (reEntered) expect(isStopHookBlock(decision)).toBe(false);
        if (isStopHookBlock(decision)) expect(decision.reason.trim()).not.toBe('');
      }),
    );
  });
});
