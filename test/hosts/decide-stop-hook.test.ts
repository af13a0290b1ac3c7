import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createStopPolicy } from '../../src/core/stop-policy.js';
import type { TestEvidence } from '../../src/core/test-evidence.js';
import { DecisionModelError } from '../../src/decision-model/decision-model-error.js';
import { createScriptedClient } from '../../src/testing/scripted-client.js';
import { HUMAN_REVIEW_NOTE } from '../../src/hosts/answer-stop.js';
import { decideStopHook } from '../../src/hosts/decide-stop-hook.js';
import { runHook } from '../../src/hosts/run-hook.js';

const stop = { hook_event_name: 'Stop', session_id: 's', stop_hook_active: false } as const;
const reentry = { ...stop, stop_hook_active: true } as const;
const red: TestEvidence = { passed: false, failed: ['auth > rejects expired token', 'auth > refreshes'], ran: 40 };
const green: TestEvidence = { passed: true, failed: [], ran: 40 };
const none: TestEvidence = { passed: true, failed: [], ran: 0 };
const saysDone = { probabilities: { acceptanceCovered: 0.93, noOpenQuestions: 0.88 } };
const midBand = { probabilities: { acceptanceCovered: 0.55, noOpenQuestions: 0.91 } };
const down = new DecisionModelError('server', 'HTTP 500 from 127.0.0.1', { status: 500 });
const RED_REASON = '2 tests failed: auth > rejects expired token; auth > refreshes. Fix them and run the tests again before you finish.';
const DOWN_WARNING = 'stopwise: the decision model could not be asked (HTTP 500 from 127.0.0.1); the tests decided on their own.';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('decideStopHook: the table of the stop hook', () => {
  it('answers nothing to an event that is not a stop, and reads an input with no event name as a stop', () => {
    expect(decideStopHook({ hook_event_name: 'PostToolUse' }, undefined, red)).toBeUndefined();
    expect(decideStopHook({}, undefined, none)).toMatchObject({ decision: 'block' });
    expect(decideStopHook({ hook_event_name: 'SubagentStop' }, undefined, red)).toEqual({ decision: 'block', reason: RED_REASON });
  });

  it('blocks failing tests, naming them, when the model does not say done, was not asked, or is down (with a warning)', () => {
    expect(decideStopHook(stop, midBand, red)).toEqual({ decision: 'block', reason: RED_REASON });
    expect(decideStopHook(stop, undefined, red)).toEqual({ decision: 'block', reason: RED_REASON });
    expect(decideStopHook(stop, down, red)).toEqual({ decision: 'block', reason: RED_REASON, systemMessage: DOWN_WARNING });
  });

  it('hands off with the human review note when the tests fail while the model says done, re-entered or not', () => {
    for (const input of [stop, reentry]) {
      const answer = decideStopHook(input, saysDone, red);
      expect(Object.keys(answer ?? {})).toEqual(['systemMessage']);
      expect(answer?.systemMessage).toMatch(new RegExp(`^stopwise: ${HUMAN_REVIEW_NOTE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(.*rule evidence_contradicts_model: 2 tests failed`));
    }
  });

  it('blocks once when no tests ran, a failed run with none counted among them', () => {
    for (const tests of [none, { passed: false, failed: [], ran: 0 }]) {
      expect(decideStopHook(stop, undefined, tests)).toEqual({ decision: 'block', reason: 'No tests ran: there is no test result for this step. Run the test suite and make it pass before you finish.' });
    }
  });

  it('hands off on a re-entry while the tests still fail or none ran: never two blocks in a row', () => {
    expect(decideStopHook(reentry, midBand, red)?.systemMessage).toMatch(/^stopwise: the agent was let stop without the checks met: a person should look \(.*by rule tests_failed_after_block/);
    expect(decideStopHook(reentry, undefined, none)?.systemMessage).toMatch(/by rule no_tests_after_block: no tests ran/);
  });

  it('lets passing tests stop when the model says done, when none is configured, and on a re-entry whatever it says', () => {
    expect(decideStopHook(stop, saysDone, green)).toBeUndefined();
    expect(decideStopHook(stop, undefined, green)).toBeUndefined();
    expect(decideStopHook(reentry, midBand, green)).toBeUndefined();
  });

  it('blocks passing tests whose checks are below the threshold, quoting the probabilities, the threshold and the task', () => {
    expect(decideStopHook(stop, midBand, green)).toEqual({
      decision: 'block',
      reason: 'The decision model is not convinced the task is done: acceptanceCovered = 0.55 (each must reach 0.7). Check your work against every acceptance criterion, finish what is missing or say what blocks you.',
    });
    expect(decideStopHook(stop, midBand, green, { policy: createStopPolicy({ doneThreshold: 0.95 }) })?.reason).toContain('acceptanceCovered = 0.55, noOpenQuestions = 0.91 (each must reach 0.95)');
    expect(decideStopHook(stop, midBand, green, { config: { task: 'Reject expired tokens', acceptance: ['a 401'] } })?.reason).toMatch(/\n\nTask: Reject expired tokens\nAcceptance criteria:\n- a 401$/);
  });

  it('hands off passing tests when the model is down, saying why: no fake success, no trap', () => {
    expect(decideStopHook(stop, down, green)?.systemMessage).toMatch(/by rule decision_model_unavailable: 40 tests passed; the decision model could not answer\)\.\nstopwise: the decision model could not be asked \(HTTP 500 from 127\.0\.0\.1\); the tests decided on their own\.$/);
  });

  it('lets the caller say whether the stop re-enters, instead of the host flag', () => {
    expect(decideStopHook(reentry, undefined, red, { reEntered: false })).toMatchObject({ decision: 'block' });
    expect(decideStopHook(stop, undefined, red, { reEntered: true })).not.toHaveProperty('decision');
  });

  it('hands off at the step cap and on a stall before anything else, given the loop', () => {
    expect(decideStopHook(stop, undefined, red, { loop: { step: 20, recentFingerprints: [] } })?.systemMessage).toMatch(/by rule hard_cap: the step cap is reached \(20 of 20\)/);
    expect(decideStopHook(stop, undefined, green, { loop: { step: 3, recentFingerprints: ['a', 'a', 'a'] } })?.systemMessage).toMatch(/by rule stalled: the last 3 steps made no progress/);
    expect(decideStopHook(stop, undefined, red, { loop: { step: 2, recentFingerprints: ['a', 'b'] } })).toMatchObject({ decision: 'block' });
    expect(decideStopHook(stop, undefined, red, { config: { maxConsecutiveBlocks: 3 }, loop: { step: 2, recentFingerprints: ['a', 'b'] } })).toMatchObject({ decision: 'block' });
  });

  it('throws a TypeError for input, evidence or numbers it cannot decide on', () => {
    expect(() => decideStopHook(null as never, undefined, red)).toThrow(TypeError);
    expect(() => decideStopHook(stop, undefined, { passed: 'yes', failed: [], ran: 1 } as never)).toThrow(TypeError);
  });

  it('never lets failing or missing tests stop silently, never blocks twice on a re-entry, and never blocks without a reason (property)', () => {
    const checks = fc.oneof(fc.constant(undefined), fc.constant(down), fc.record({ probabilities: fc.dictionary(fc.constantFrom('acceptanceCovered', 'noOpenQuestions'), fc.double({ min: 0, max: 1, noNaN: true })) }));
    const evidence = fc.record({ passed: fc.boolean(), failed: fc.array(fc.constantFrom('a', 'b > c'), { maxLength: 3 }), ran: fc.nat(50) });
    fc.assert(
      fc.property(checks, evidence, fc.boolean(), (checked, tests, reEntered) => {
        const answer = decideStopHook({ hook_event_name: 'Stop' }, checked, tests, { reEntered });
        if (tests.ran === 0 || !tests.passed || tests.failed.length > 0) expect(answer).toBeDefined();
        if (reEntered) expect(answer?.decision).toBeUndefined();
        if (answer?.decision === 'block') expect(answer.reason?.trim()).not.toBe('');
      }),
    );
  });
});

describe('decideStopHook against stopwise hook claude-code', () => {
  it('answers the first stop of a session as the hook does, for every evidence and every answer of the model', async () => {
    const config = { task: 'Reject expired tokens', acceptance: ['expired tokens get a 401'] };
    for (const tests of [red, green, none]) {
      for (const checked of [undefined, saysDone, midBand, down]) {
        const dir = mkdtempSync(join(tmpdir(), 'stopwise-decide-stop-hook-'));
        folders.push(dir);
        writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'unused' }, ...config, decisionModel: { client: checked === undefined ? 'none' : 'system-one' } }));
        const client = createScriptedClient(() => (checked instanceof Error ? checked : (checked?.probabilities ?? {})));
        const run = await runHook('claude-code', JSON.stringify({ ...stop, cwd: dir }), {
          env: {},
          testRunner: { run: async () => ({ outcome: 'ran', evidence: tests }) },
          ...(checked === undefined ? {} : { client }),
        });
        const asked = client.calls.length > 0 ? checked : undefined;
        const expected = decideStopHook(stop, asked, tests, { config, loop: { step: 1, recentFingerprints: [] } });
        expect(run.stdout === '' ? undefined : JSON.parse(run.stdout), `${JSON.stringify(tests)} ${String(checked instanceof Error ? 'down' : JSON.stringify(checked))}`).toEqual(expected);
      }
    }
  });
});
