import { describe, expect, it } from 'vitest';
import { decide, initialStopState } from '../../src/core/policy/decide.js';
import { parseStopPolicy } from '../../src/core/policy/parse-stop-policy.js';
import type { StopDecision } from '../../src/core/policy/stop-decision.js';
import type { StopEvent } from '../../src/core/policy/stop-event.js';
import type { StopPolicyDocument } from '../../src/core/policy/stop-policy-document.js';
import type { StopState } from '../../src/core/policy/stop-state.js';
import type { TestEvidence } from '../../src/core/test-evidence.js';
import { DecisionModelError } from '../../src/decision-model/decision-model-error.js';
import { createScriptedClient } from '../../src/testing/scripted-client.js';
import { createStopPolicy, DEFAULT_POLICY } from '../../src/core/stop-policy.js';
import { answerStop, encodedStop, handOffMessage, hookPolicy, HUMAN_REVIEW_NOTE, type StopSession } from '../../src/hosts/answer-stop.js';
import { HOSTS, type BlockCap, type HookEvent } from '../../src/hosts/host.js';
import type { ProjectTestRun, ProjectTestRunner } from '../../src/hosts/project-tests.js';
import { newSessionState, type SessionState } from '../../src/hosts/session-state.js';
import { parseStopwiseConfig, type StopwiseConfig } from '../../src/hosts/stopwise-config.js';
import { DEFAULT_TOOL_GUARD_OPTIONS, guardToolEvent, initialToolGuardState } from '../../src/hosts/tool-guard.js';

const NOW = new Date('2026-12-02T07:00:00.000Z');
const RED: TestEvidence = { passed: false, failed: ['auth > refreshes'], ran: 3, failures: [{ name: 'auth > refreshes', message: 'expected 401, got 200' }] };
const GREEN: TestEvidence = { passed: true, failed: [], ran: 3 };
const NONE: TestEvidence = { passed: false, failed: [], ran: 0 };
const CLAUDE_CAP: BlockCap = { blocks: 8, source: "Claude Code's default cap" };

function config(value: Record<string, unknown> = {}): StopwiseConfig {
  const parsed = parseStopwiseConfig({ tests: { command: 'unused' }, ...value });
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.config;
}

/** A runner that gives these runs in turn and records the previous evidence it was handed. */
function runner(...runs: ProjectTestRun[]): ProjectTestRunner & { readonly previous: (TestEvidence | undefined)[]; readonly timeouts: number[] } {
  const previous: (TestEvidence | undefined)[] = [];
  const timeouts: number[] = [];
  return {
    previous,
    timeouts,
    async run(tests, options) {
      previous.push(options.previous);
      timeouts.push(tests.timeoutMs);
      const next = runs.shift();
      if (next === undefined) throw new Error('no more test runs');
      return next;
    },
  };
}

const ran = (evidence: TestEvidence): ProjectTestRun => ({ outcome: 'ran', evidence });

function session(overrides: Partial<StopSession> = {}, event: Partial<Extract<HookEvent, { kind: 'stop' }>> = {}): StopSession {
  return {
    host: HOSTS['claude-code'],
    event: { kind: 'stop', eventName: 'Stop', sessionId: 's', lastMessage: 'I am done.', reentered: false, ...event },
    config: config(),
    configPath: '/project/stopwise.config.json',
    projectDir: '/project',
    env: {},
    cap: CLAUDE_CAP,
    now: () => NOW,
    stepMs: () => 60_000,
    progress: { phase: '' },
    testRunner: runner(ran(RED)),
    ...overrides,
  };
}

/** Decides events in a row with a policy, each from the state the last one left. */
function decideAll(policy: StopPolicyDocument, events: readonly Omit<StopEvent, 'step'>[]): StopDecision[] {
  let state: StopState = initialStopState(policy);
  return events.map((event) => {
    const result = decide(policy, state, { step: state.step + 1, ...event });
    state = result.state;
    return result.decision;
  });
}

describe('hookPolicy', () => {
  it('puts a capped twin before each retry rule of the hook preset: a stop for a person once the blocks in a row reach the cap', () => {
    const policy = hookPolicy(config(), CLAUDE_CAP);
    const ids = policy.rules.map((rule) => rule.id);
    expect(ids.slice(ids.indexOf('tests_failed') - 1, ids.indexOf('tests_failed') + 1)).toEqual(['tests_failed_capped', 'tests_failed']);
    const capped = policy.rules.find((rule) => rule.id === 'tests_failed_capped');
    const retry = policy.rules.find((rule) => rule.id === 'tests_failed');
    expect(capped).toEqual({ id: 'tests_failed_capped', when: { all: [retry?.when, { retries: { atLeast: 1 } }] }, then: { kind: 'stop', exit: 'need_help', reason: 'block_cap' } });
    for (const rule of policy.rules) if (rule.then.kind === 'retry') expect(ids[ids.indexOf(rule.id) - 1]).toBe(`${rule.id}_capped`);
  });

  it("stops at whichever cap comes first, and says when it was the host's", () => {
    const ours = decideAll(hookPolicy(config({ maxConsecutiveBlocks: 3, policy: { stallRounds: 50 } }), CLAUDE_CAP), Array(4).fill({ tests: RED, decisionModel: 'none' }));
    expect(ours.map((decision) => decision.kind)).toEqual(['retry', 'retry', 'retry', 'stop']);
    // The preset hands off after maxConsecutiveBlocks by a rule of its own, which stands before the capped twins.
    expect(ours[3]).toMatchObject({ kind: 'stop', exit: 'need_help', rule: 'tests_failed_after_block' });
    const host = decideAll(hookPolicy(config({ maxConsecutiveBlocks: 20, policy: { stallRounds: 50 } }), { blocks: 2, source: 'test' }), Array(3).fill({ tests: RED, decisionModel: 'none' }));
    expect(host.map((decision) => decision.kind)).toEqual(['retry', 'retry', 'stop']);
    expect(host[2]).toMatchObject({ rule: 'tests_failed_capped', reason: 'host_block_cap' });
    const none = decideAll(hookPolicy(config({ maxConsecutiveBlocks: 5, policy: { stallRounds: 50 } }), undefined), Array(6).fill({ tests: RED, decisionModel: 'none' }));
    expect(none.map((decision) => decision.kind)).toEqual(['retry', 'retry', 'retry', 'retry', 'retry', 'stop']);
  });

  it('keeps a document policy of the configuration, caps its retries the same way, and blocks never under a cap of none', () => {
    const document = parseStopPolicy({
      version: 2,
      rules: [
        { id: 'red', when: { tests: 'failed' }, then: { kind: 'retry', reason: 'fix_the_tests' } },
        { id: 'green', when: { tests: 'passed' }, then: { kind: 'stop', exit: 'success', reason: 'green' } },
      ],
    });
    const policy = hookPolicy(config({ policy: document, maxConsecutiveBlocks: 2 }), undefined);
    expect(policy.rules.map((rule) => rule.id)).toEqual(['red_capped', 'red', 'green']);
    expect(decideAll(policy, Array(3).fill({ tests: RED })).map((decision) => decision.rule)).toEqual(['red', 'red', 'red_capped']);
    const never = hookPolicy(config({ policy: document }), { blocks: 0, source: 'a loop_limit of 0' });
    expect(never.rules.some((rule) => rule.then.kind === 'retry')).toBe(false);
    expect(decideAll(never, [{ tests: RED }])[0]?.kind).not.toBe('retry');
  });
});

describe('answerStop', () => {
  it('blocks red tests, keeping the span, the evidence and the block; the runner gets the last evidence and the time left', async () => {
    const tests = runner(ran(RED));
    const decided = await answerStop(session({ testRunner: tests, stepMs: () => 5_000 }), newSessionState(NOW));
    expect(decided.answer).toMatchObject({ decision: { kind: 'retry', rule: 'tests_failed' } });
    expect(decided).toMatchObject({ step: 1, tests: RED, state: { stop: { step: 1, retries: 1 }, lastEvidence: RED, lastStop: { kind: 'block', at: NOW.toISOString() } } });
    expect(tests.timeouts).toEqual([5_000]);
    const again = runner(ran(RED));
    const second = await answerStop(session({ testRunner: again }, { reentered: true }), decided.state);
    expect(again.previous).toEqual([RED]);
    expect(second.answer).toMatchObject({ decision: { kind: 'stop', exit: 'need_help', rule: 'tests_failed_after_block' } });
    expect(second).toMatchObject({ step: 2, state: { stop: null, lastStop: { kind: 'handoff' } } });
  });

  it('lets green tests stop without a decision model, and ends the span', async () => {
    const decided = await answerStop(session({ testRunner: runner(ran(GREEN)) }), newSessionState(NOW));
    expect(decided.answer).toMatchObject({ decision: { kind: 'stop', exit: 'success' } });
    expect(decided.state).toMatchObject({ stop: null, lastEvidence: GREEN, lastStop: { kind: 'allow' } });
  });

  it('asks the decision model only when the rules need it, and gives a criteria block the task as context', async () => {
    const client = createScriptedClient([{ acceptanceCovered: 0.3, noOpenQuestions: 0.9 }]);
    const judged = config({ task: 'Reject expired tokens', acceptance: ['expired tokens get a 401'], decisionModel: { client: 'system-one' } });
    const none = await answerStop(session({ config: judged, client, testRunner: runner(ran(NONE)) }), newSessionState(NOW));
    expect(none.answer).toMatchObject({ decision: { kind: 'retry', rule: 'no_tests_ran' } });
    expect(client.calls).toHaveLength(0);
    const below = await answerStop(session({ config: judged, client, testRunner: runner(ran(GREEN)) }), newSessionState(NOW));
    expect(client.calls).toHaveLength(1);
    expect(client.calls[0]?.state).toMatchObject({ task: 'Reject expired tokens', output: 'I am done.', acceptance: ['expired tokens get a 401'], tests: GREEN });
    expect(below.answer).toMatchObject({ decision: { kind: 'retry', rule: 'criteria_below_threshold' }, context: 'Task: Reject expired tokens\nAcceptance criteria:\n- expired tokens get a 401' });
  });

  it('lets the evidence decide when the decision model cannot be asked, with a warning, never a stop on failing tests', async () => {
    const judged = config({ task: 't', decisionModel: { client: 'system-one' } });
    const down = () => createScriptedClient([new DecisionModelError('server', 'HTTP 503 from the model')]);
    const red = await answerStop(session({ config: judged, client: down(), testRunner: runner(ran(RED)) }), newSessionState(NOW));
    expect(red.answer).toMatchObject({ decision: { kind: 'retry' }, warning: 'stopwise: the decision model could not be asked (HTTP 503 from the model); the tests decided on their own.' });
    const green = await answerStop(session({ config: judged, client: down(), testRunner: runner(ran(GREEN)) }), newSessionState(NOW));
    expect(green.answer).toMatchObject({ decision: { kind: 'stop', exit: 'need_help', rule: 'decision_model_unavailable' } });
    // The person, handed the run, reads why the model could not be asked.
    expect(encodedStop(green.answer, HOSTS['claude-code'], CLAUDE_CAP)).toEqual({
      kind: 'handoff',
      message: expect.stringMatching(/^stopwise: the agent was let stop without the checks met: .*the decision model could not answer\)\.\nstopwise: the decision model could not be asked \(HTTP 503 from the model\); the tests decided on their own\.$/),
    });
    // a client the configuration cannot make is a model that is down
    const unmade = await answerStop(session({ config: config({ task: 't', decisionModel: { client: 'system-one', apiKeyEnv: 'STOPWISE_UNSET_KEY' } }), testRunner: runner(ran(GREEN)) }), newSessionState(NOW));
    expect(unmade.answer).toMatchObject({ decision: { rule: 'decision_model_unavailable' }, warning: expect.stringContaining('STOPWISE_UNSET_KEY') });
  });

  it('leaves a run that did not complete alone: no test runs', async () => {
    const decided = await answerStop(session({ testRunner: runner() }, { status: 'aborted' }), newSessionState(NOW));
    expect(decided.answer).toEqual({ skipped: 'the run ended aborted' });
    expect(decided.state.lastStop).toEqual({ kind: 'allow', at: NOW.toISOString() });
  });

  it("hands the run off for the tool guard before anything else, and starts the guard afresh, keeping its totals", async () => {
    const guard = DEFAULT_TOOL_GUARD_OPTIONS;
    let tools = initialToolGuardState(guard.stall);
    for (let call = 0; call < 5; call++) {
      tools = guardToolEvent(tools, { phase: 'pre', tool: 'Bash', input: { command: 'npm test' } }, guard, NOW).state;
      tools = guardToolEvent(tools, { phase: 'post', tool: 'Bash', input: { command: 'npm test' }, output: 'Error: boom', exitCode: 1 }, guard, NOW).state;
    }
    tools = guardToolEvent(tools, { phase: 'pre', tool: 'Bash', input: { command: 'npm test' } }, guard, NOW).state;
    expect(tools.handOff).not.toBeNull();
    const state: SessionState = { ...newSessionState(NOW), tools };
    const decided = await answerStop(session({ testRunner: runner() }), state);
    expect(decided.answer).toEqual({ handOff: expect.stringMatching(/^stopwise: the agent needs a person\. /), reason: 'tool_guard' });
    expect(decided.state.tools).toEqual({ ...initialToolGuardState(guard.stall), totals: tools.totals });
  });

  it('hands off without blocking when the tests cannot run, time out, or there is no time left for them', async () => {
    const minute = config({ tests: { command: 'unused', timeoutMs: 60_000 } });
    const timedOut = await answerStop(session({ config: minute, testRunner: runner({ outcome: 'timeout', timeoutMs: 60_000 }) }), newSessionState(NOW));
    expect(timedOut.answer).toEqual({
      handOff: 'stopwise: the test command did not finish within 60 s (tests.timeoutMs) and was stopped; the stop was allowed without test evidence. A person should look.',
      reason: 'tests_timed_out',
    });
    const cut = await answerStop(session({ stepMs: () => 8_000, testRunner: runner({ outcome: 'timeout', timeoutMs: 8_000 }) }), newSessionState(NOW));
    expect(cut.answer).toMatchObject({ handOff: expect.stringContaining("was stopped after 8 s, when the hook's deadline was about to run out"), reason: 'tests_timed_out' });
    const broken = await answerStop(session({ testRunner: runner({ outcome: 'not_started', command: 'nope --run', message: 'spawn nope ENOENT' }) }), newSessionState(NOW));
    expect(broken.answer).toEqual({
      handOff: 'stopwise: the test command `nope --run` could not start (spawn nope ENOENT); the stop was allowed unchecked. Fix tests.command in /project/stopwise.config.json; a person should look.',
      reason: 'tests_not_started',
    });
    expect(broken.state).toMatchObject({ stop: null, lastStop: { kind: 'handoff' } });
    const late = await answerStop(session({ stepMs: () => 0, testRunner: runner() }), newSessionState(NOW));
    expect(late.answer).toMatchObject({ reason: 'deadline' });
  });

  it('blocks a run that failed outside any test, naming the test command', async () => {
    const decided = await answerStop(session({ testRunner: runner({ outcome: 'ran', evidence: NONE, reason: 'exit code 2: Cannot find module' }) }), newSessionState(NOW));
    expect(decided.tests?.failures).toEqual([{ name: 'test command', message: 'exit code 2: Cannot find module' }]);
    expect(decided.answer).toMatchObject({ decision: { kind: 'retry' } });
  });
});

describe('encodedStop and handOffMessage', () => {
  const host = HOSTS['claude-code'];
  const [retry, handedOff] = decideAll(hookPolicy(config(), CLAUDE_CAP), [{ tests: RED, decisionModel: 'none' }, { tests: RED, decisionModel: 'none' }]) as [StopDecision, StopDecision];

  it("blocks with the retry's feedback and the context after a blank line, never with an empty reason", () => {
    if (retry.kind !== 'retry') throw new Error('expected a retry');
    expect(encodedStop({ decision: retry, context: ' Task: t \n' }, host, CLAUDE_CAP)).toEqual({ kind: 'block', reason: `${retry.feedback.message.trim()}\n\nTask: t` });
    expect(encodedStop({ decision: retry, warning: 'w' }, host, CLAUDE_CAP)).toEqual({ kind: 'block', reason: retry.feedback.message.trim(), warning: 'w' });
    const blank = { ...retry, feedback: { message: '  \n' } };
    expect(encodedStop({ decision: blank }, host, CLAUDE_CAP)).toEqual({ kind: 'block', reason: 'stopwise: the stop was blocked; run the tests and check the task before you finish.' });
  });

  it('allows a success, and hands any other stop, a continue and a hand-off of its own to the person', () => {
    const [success] = decideAll(hookPolicy(config(), CLAUDE_CAP), [{ tests: GREEN, decisionModel: 'none' }]);
    expect(encodedStop({ decision: success as StopDecision, warning: 'w' }, host, CLAUDE_CAP)).toEqual({ kind: 'allow', warning: 'w' });
    expect(encodedStop({ skipped: 'aborted' }, host, CLAUDE_CAP)).toEqual({ kind: 'allow' });
    expect(encodedStop({ handOff: 'stopwise: look', reason: 'deadline' }, host, CLAUDE_CAP)).toEqual({ kind: 'handoff', message: 'stopwise: look' });
    expect(encodedStop({ decision: handedOff }, host, CLAUDE_CAP)).toEqual({ kind: 'handoff', message: handOffMessage(handedOff, host, CLAUDE_CAP) });
    expect(handOffMessage(handedOff, host, CLAUDE_CAP)).toBe(
      'stopwise: the agent was let stop without the checks met: a person should look (stop (need_help) at step 2 by rule tests_failed_after_block: 1 test failed: auth > refreshes; after 1 retry in a row).',
    );
    const [idle] = decideAll(parseStopPolicy({ version: 2, rules: [{ id: 'wait', when: { always: true }, then: { kind: 'continue', reason: 'keep_going' } }] }), [{ tests: RED }]);
    expect(handOffMessage(idle as StopDecision, host, CLAUDE_CAP)).toMatch(/^stopwise: the stop policy did not decide this stop \(continue at step 1 by rule wait \(keep_going\).*a stop hook cannot keep the agent going without a reason for it, so the stop was allowed\. A person should look\.$/);
  });

  it('names the human review when the tests fail while the model says done, and the host and its cap when the host cap stopped it', () => {
    const [contradicted] = decideAll(hookPolicy(config(), CLAUDE_CAP), [{ tests: RED, probabilities: { acceptanceCovered: 0.95, noOpenQuestions: 0.95 } }]);
    expect(handOffMessage(contradicted as StopDecision, host, CLAUDE_CAP)).toMatch(new RegExp(`^stopwise: ${HUMAN_REVIEW_NOTE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(stop \\(need_help\\)`));
    const cap = { blocks: 1, source: 'CLAUDE_CODE_STOP_HOOK_BLOCK_CAP' };
    const [, capped] = decideAll(hookPolicy(config({ maxConsecutiveBlocks: 5 }), cap), [{ tests: RED, decisionModel: 'none' }, { tests: RED, decisionModel: 'none' }]);
    expect(handOffMessage(capped as StopDecision, host, cap)).toMatch(/^stopwise: Claude Code ends the run after 1 blocks in a row \(CLAUDE_CODE_STOP_HOOK_BLOCK_CAP\), so stopwise hands the run to you instead: a person should look \(stop \(need_help\) at step 2 by rule tests_failed_capped \(host_block_cap\)/);
  });
});

describe('hookPolicy, checked by the schema', () => {
  it('builds, for any numbers, block cap and host cap, a document the schema accepts as it is', () => {
    for (const maxConsecutiveBlocks of [1, 2, 5]) {
      for (const cap of [undefined, { blocks: 0, source: 'host' }, { blocks: 1, source: 'host' }, { blocks: 8, source: 'host' }]) {
        for (const policy of [DEFAULT_POLICY, createStopPolicy({ doneThreshold: 0.9, midBandLow: 0.2, maxSteps: 3, stallRounds: 2 })]) {
          const built = hookPolicy({ policy, maxConsecutiveBlocks }, cap);
          expect(parseStopPolicy(JSON.parse(JSON.stringify(built)))).toEqual(built);
        }
      }
    }
  });
});
