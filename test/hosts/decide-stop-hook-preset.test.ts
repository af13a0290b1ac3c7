import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lowestCriterion } from '../../src/core/criterion-probabilities.js';
import { decide, needsJudgement } from '../../src/core/policy/decide.js';
import { initialStopState, type StopState } from '../../src/core/policy/stop-state.js';
import { HOOK_STOP_POLICY, hookStopPolicy } from '../../src/core/policy/hook-stop-policy.js';
import type { StopEvent } from '../../src/core/policy/stop-event.js';
import { DEFAULT_POLICY, type StopPolicy } from '../../src/core/stop-policy.js';
import type { TestEvidence } from '../../src/core/test-evidence.js';
import { decideStopHook, type StopHookCheck } from '../../src/hosts/decide-stop-hook.js';
import { beginStopAttempt, initialHookSessionState, isReentry, recordStopOutcome, type HookSessionState } from '../../src/hosts/hook-session-state.js';
import { hostSignalsReentry, type StopHookInput } from '../../src/hosts/stop-hook-input.js';
import { toStopHookDecision } from '../../src/hosts/to-stop-hook-decision.js';
import { oldDecideStopHook } from '../support/old-decide-stop-hook.js';
import { probabilities, stopPolicy } from '../core/arbitraries.js';

const evidence: fc.Arbitrary<TestEvidence> = fc.oneof(
  fc.record({
    passed: fc.boolean(),
    failed: fc.array(fc.constantFrom('a > b', 'suite > test 1', 'x'), { maxLength: 3 }),
    ran: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 50 })),
  }),
  fc.constant({ passed: false, failed: ['auth > login'], ran: 3, failures: [{ name: 'auth > login', message: 'expected 401, got 200' }] }),
  fc.constant({ passed: false, failed: [], ran: 0, failures: [{ name: 'npm test', message: 'command not found' }] }),
);

const input: fc.Arbitrary<StopHookInput> = fc.record(
  {
    hook_event_name: fc.constantFrom('Stop', 'SubagentStop', 'stop', 'PreToolUse', 'Notification'),
    stop_hook_active: fc.boolean(),
    loop_count: fc.nat(3),
    last_assistant_message: fc.constantFrom('', 'done', 'fixed the parser'),
  },
  { requiredKeys: [] },
) as fc.Arbitrary<StopHookInput>;

/** What checkCompletion reports: modelSaysDone is the lowest probability against the policy's done threshold. */
function check(policy: StopPolicy): fc.Arbitrary<StopHookCheck> {
  return fc.oneof(
    fc.constant(undefined),
    fc.constantFrom(new Error('HTTP 500 from the decision model'), new Error('timed out')),
    probabilities.map((p) => ({ modelSaysDone: lowestCriterion(p).probability >= policy.doneThreshold, probabilities: p })),
  );
}

const loop = fc.option(
  fc.record({ step: fc.integer({ min: 0, max: 25 }), recentFingerprints: fc.array(fc.constantFrom('f1', 'f2'), { maxLength: 5 }) }),
  { nil: undefined },
);

describe('the hook preset against the table it replaces', () => {
  it('decideStopHook gives the answers of the old table on 100,000 random inputs', () => {
    const cases = fc.oneof(fc.constant(DEFAULT_POLICY), stopPolicy).chain((policy) =>
      fc.record({
        policy: fc.constant(policy),
        givePolicy: fc.boolean(),
        input,
        checked: check(policy),
        tests: evidence,
        reEntered: fc.option(fc.boolean(), { nil: undefined }),
        loop,
      }),
    );
    fc.assert(
      fc.property(cases, ({ policy, givePolicy, input, checked, tests, reEntered, loop }) => {
        const options = {
          ...(givePolicy || policy !== DEFAULT_POLICY ? { policy } : {}),
          ...(reEntered === undefined ? {} : { reEntered }),
          ...(loop === undefined ? {} : { loop }),
        };
        expect(decideStopHook(input, checked, tests, options)).toEqual(oldDecideStopHook(input, checked, tests, options));
      }),
      { numRuns: 100_000 },
    );
  }, 300_000);

  it('decide over a stop state, attempt by attempt, gives what the old table gave with the hook session state (20,000 sessions)', () => {
    const attempt = fc.record({ input, checked: check(DEFAULT_POLICY), tests: evidence });
    const cases = fc.record({ blocks: fc.integer({ min: 1, max: 3 }), attempts: fc.array(attempt, { minLength: 1, maxLength: 8 }) });
    fc.assert(
      fc.property(cases, ({ blocks, attempts }) => {
        const policy = hookStopPolicy(DEFAULT_POLICY, { maxConsecutiveBlocks: blocks });
        let session: HookSessionState = initialHookSessionState(new Date(0));
        let state: StopState = initialStopState(policy);
        for (const { input, checked, tests } of attempts) {
          const stop = { ...input, hook_event_name: 'Stop' };
          // The old path: the session's count of blocks and the loop window, then the stateless table.
          const reEntered = isReentry(session, blocks, hostSignalsReentry(stop));
          const begun = beginStopAttempt(session, tests, stop.last_assistant_message ?? '', DEFAULT_POLICY.stallRounds);
          const asked = !reEntered && tests.ran > 0 ? checked : undefined;
          const before = oldDecideStopHook(stop, asked, tests, { reEntered, loop: begun.loop });
          // The new path: one event per attempt, the model asked only when the rules need it.
          const base: StopEvent = { step: state.step + 1, tests, output: stop.last_assistant_message ?? '', reentered: hostSignalsReentry(stop) };
          const needed = needsJudgement(policy, state, base);
          // The model is asked exactly when the old hook asked it: not on a re-entry, not without tests, not at the cap or a stall.
          const limited = /step cap|identical/.test(oldDecideStopHook(stop, undefined, tests, { reEntered, loop: begun.loop })?.systemMessage ?? '');
          expect(needed).toBe(!reEntered && tests.ran > 0 && !limited);
          const judged = needed ? checked : undefined;
          const event: StopEvent =
            judged === undefined ? (needed ? { ...base, judge: 'none' } : base) : judged instanceof Error ? { ...base, judge: 'unavailable' } : { ...base, probabilities: judged.probabilities };
          const result = decide(policy, state, event);
          const facts = judged === undefined ? { tests } : judged instanceof Error ? { tests, modelError: judged } : { tests, probabilities: judged.probabilities };
          const after = toStopHookDecision(result.decision, facts);
          expect(after).toEqual(before);
          const kind = before === undefined ? 'allow' : 'decision' in before ? 'block' : 'handoff';
          session = recordStopOutcome(session, begun, { kind }, tests, new Date(0));
          state = result.decision.kind === 'retry' ? result.state : initialStopState(policy);
        }
      }),
      { numRuns: 20_000 },
    );
  }, 300_000);

  it('is a valid document that blocks once and then hands off', () => {
    const red = { passed: false, failed: ['a > b'], ran: 2 };
    const first = decide(HOOK_STOP_POLICY, initialStopState(HOOK_STOP_POLICY), { step: 1, tests: red, judge: 'none' });
    expect(first.decision).toMatchObject({ kind: 'retry', rule: 'tests_failed' });
    const second = decide(HOOK_STOP_POLICY, first.state, { step: 2, tests: red, judge: 'none' });
    expect(second.decision).toMatchObject({ kind: 'stop', exit: 'need_help', rule: 'tests_failed_after_block' });
  });
});
