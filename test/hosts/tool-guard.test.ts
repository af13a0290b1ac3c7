import { describe, expect, it } from 'vitest';
import type { ToolEvent } from '../../src/hosts/host.js';
import {
  callLabel,
  DEFAULT_TOOL_GUARD_OPTIONS,
  describeHandOff,
  fitToolGuardToHost,
  guardToolEvent,
  initialToolGuardState,
  isToolGuardState,
  resolveToolGuardOptions,
  startToolGuardTurn,
  type ToolGuardLadder,
  type ToolGuardOptions,
  type ToolGuardState,
} from '../../src/hosts/tool-guard.js';

const NOW = new Date('2026-12-02T07:00:00.000Z');
const pre = (command: string, tool = 'Bash'): ToolEvent => ({ phase: 'pre', tool, input: { command } });
const post = (command: string, output: string, exitCode = 1, tool = 'Bash'): ToolEvent => ({ phase: 'post', tool, input: { command }, output, exitCode });
const failing = () => post('npm test', 'Error: boom');

/**
 * An agent that calls `npm test` until `calls` calls were made or refused: each call the guard lets run runs and
 * gives `result(n)`. The answers as `pre:<kind>` and `post:<kind>`, and the state at the end.
 */
function session(guard: ToolGuardOptions, calls: number, result: (call: number) => ToolEvent, start?: ToolGuardState): { seen: string[]; state: ToolGuardState; messages: string[] } {
  let state = start ?? initialToolGuardState(guard.stall);
  const seen: string[] = [];
  const messages: string[] = [];
  for (let call = 1; call <= calls; call++) {
    const before = guardToolEvent(state, { ...pre('npm test'), tool: result(call).tool }, guard, NOW);
    state = before.state;
    seen.push(`pre:${before.answer.kind}`);
    if (before.answer.kind === 'deny') {
      messages.push(before.answer.reason);
      continue;
    }
    const after = guardToolEvent(state, result(call), guard, NOW);
    state = after.state;
    seen.push(`post:${after.answer.kind}`);
    if (after.answer.kind === 'context') messages.push(after.answer.message);
  }
  return { seen, state, messages };
}

describe('guardToolEvent', () => {
  it('climbs the default ladder on the same failure: the nudge answers its third run (OpenHands nudges after the third identical failing call, Goose stops the same error at three), the next repeat is refused, then a hand-off waits', () => {
    const { seen, state, messages } = session(DEFAULT_TOOL_GUARD_OPTIONS, 6, failing);
    expect(seen.join(' ')).toBe('pre:none post:none pre:none post:none pre:none post:context pre:deny pre:deny pre:deny');
    expect(messages[0]).toBe(
      'stopwise: The last 3 steps called `Bash` with the same input and it failed the same way each time; read the error and change the approach. (`Bash` `npm test`, 3 times since step 1.) If you run it again unchanged it will be refused: read the error, change the command or fix what it runs, or try another way.',
    );
    expect(messages[1]).toMatch(/^stopwise refused this call \(`Bash` `npm test`\): it repeats\. .* refused once so far\. Its error: Error: boom\. Instead: read the error/);
    expect(messages[2]).toMatch(/refused 2 times so far\. Its error: Error: boom\. A person has been asked to look: stop here, end your turn and say what you need\.$/);
    expect(state.handOff).toMatchObject({ question: expect.stringContaining('`Bash` `npm test`'), evidence: expect.stringContaining('Error: boom'), at: NOW.toISOString() });
    expect(state.totals).toEqual({ recorded: 3, nudges: 1, refusals: 3, handOffs: 1 });
  });

  it('quotes an error that ends a sentence without a second full stop', () => {
    const { messages } = session(DEFAULT_TOOL_GUARD_OPTIONS, 4, () => post('npm test', 'Error: the build failed.'));
    expect(messages[1]).toContain('Its error: Error: the build failed. Instead:');
    expect(messages.join('\n')).not.toMatch(/\.\./);
  });

  it('follows the configured ladder: more nudges, more refusals, no hand-off', () => {
    const guard = resolveToolGuardOptions({ ladder: { nudges: 2, refusals: 2, handOff: false } });
    const { seen, state } = session(guard, 7, failing);
    expect(seen.join(' ')).toBe('pre:none post:none pre:none post:none pre:none post:context pre:none post:context pre:deny pre:deny pre:deny');
    expect(state.handOff).toBeNull();
    expect(state.totals).toMatchObject({ nudges: 2, refusals: 3, handOffs: 0 });
  });

  it('refuses at the call after the finding when the ladder has no nudges, never before it; hands off at the first refusal when it allows none', () => {
    const quiet = session(resolveToolGuardOptions({ ladder: { nudges: 0 } }), 5, failing);
    expect(quiet.seen.join(' ')).toBe('pre:none post:none pre:none post:none pre:none post:none pre:deny pre:deny');
    const direct = session(resolveToolGuardOptions({ ladder: { refusals: 0 } }), 4, failing);
    expect(direct.seen.join(' ')).toBe('pre:none post:none pre:none post:none pre:none post:context pre:deny');
    expect(direct.messages[1]).toMatch(/A person has been asked to look/);
    expect(direct.state.handOff).not.toBeNull();
  });

  it('never acts on a prediction: two failures and then a success stay silent, even with no nudges (a third call may succeed)', () => {
    const results = [post('npm test', 'Error: timeout in test a'), post('npm test', 'Error: timeout in test a'), post('npm test', '12 passed', 0)];
    for (const guard of [DEFAULT_TOOL_GUARD_OPTIONS, resolveToolGuardOptions({ ladder: { nudges: 0 } })]) {
      const { seen } = session(guard, 3, (n) => results[n - 1] as ToolEvent);
      expect(seen.every((answer) => answer.endsWith(':none')), seen.join(' ')).toBe(true);
    }
  });

  it("never refuses another call for one call's stall: the same error from one tool does not refuse another tool (Goose), nor another input", () => {
    const guard = DEFAULT_TOOL_GUARD_OPTIONS;
    let state = initialToolGuardState(guard.stall);
    const fail = (tool: string): ToolEvent => ({ phase: 'post', tool, input: {}, output: 'Error: same error', error: true });
    for (let n = 0; n < 3; n++) state = guardToolEvent(state, fail('tool_a'), guard, NOW).state;
    expect(guardToolEvent(state, { phase: 'pre', tool: 'tool_a', input: {} }, guard, NOW).answer.kind).toBe('deny');
    expect(guardToolEvent(state, { phase: 'pre', tool: 'tool_b', input: {} }, guard, NOW).answer.kind).toBe('none');
    state = guardToolEvent(state, { phase: 'post', tool: 'tool_b', input: {}, output: 'ok' }, guard, NOW).state;
    state = guardToolEvent(state, fail('tool_a'), guard, NOW).state;
    expect(guardToolEvent(state, { phase: 'pre', tool: 'tool_b', input: {} }, guard, NOW).answer.kind).toBe('none');
    expect(guardToolEvent(state, pre('npm test'), guard, NOW).answer.kind).toBe('none');
  });

  it('lets a browser scroll repeat whatever it returns (Roo Code), and polls a background shell up to twelve times (OpenClaw)', () => {
    const guard = DEFAULT_TOOL_GUARD_OPTIONS;
    let state = initialToolGuardState(guard.stall);
    const scroll: ToolEvent = { phase: 'post', tool: 'browser_action', input: { action: 'scroll_down' }, output: 'screenshot' };
    for (let n = 0; n < 20; n++) {
      expect(guardToolEvent(state, { ...scroll, phase: 'pre' }, guard, NOW).answer.kind).toBe('none');
      const after = guardToolEvent(state, scroll, guard, NOW);
      expect(after.answer.kind).toBe('none');
      state = after.state;
    }
    const poll: ToolEvent = { phase: 'post', tool: 'BashOutput', input: { bash_id: '1' }, output: 'still running' };
    const answers: string[] = [];
    for (let n = 0; n < 12; n++) {
      const after = guardToolEvent(state, poll, guard, NOW);
      answers.push(after.answer.kind);
      state = after.state;
    }
    expect(answers.slice(0, 11).every((kind) => kind === 'none')).toBe(true);
    expect(answers[11]).toBe('context');
  });

  it('starts afresh at a new user turn (OpenHands reads the history after the last user message), keeping the totals and a pending hand-off', () => {
    const { state } = session(DEFAULT_TOOL_GUARD_OPTIONS, 4, failing);
    expect(guardToolEvent(state, pre('npm test'), DEFAULT_TOOL_GUARD_OPTIONS, NOW).answer.kind).toBe('deny');
    const turn = startToolGuardTurn(state, DEFAULT_TOOL_GUARD_OPTIONS);
    expect(turn.totals).toEqual(state.totals);
    expect(turn.handOff).toEqual(state.handOff);
    expect(turn).toMatchObject({ calls: [], ladder: null, stall: initialToolGuardState(DEFAULT_TOOL_GUARD_OPTIONS.stall).stall });
    expect(guardToolEvent(turn, pre('npm test'), DEFAULT_TOOL_GUARD_OPTIONS, NOW).answer.kind).toBe('none');
  });

  it('ignores progress notes in a call (Cline drops task_progress): the same call with a new note is the same call', () => {
    const guard = DEFAULT_TOOL_GUARD_OPTIONS;
    let state = initialToolGuardState(guard.stall);
    for (let n = 0; n < 3; n++) {
      state = guardToolEvent(state, { phase: 'post', tool: 'execute_command', input: { command: 'make', task_progress: `- [x] step ${n}` }, output: 'Error: x', exitCode: 2 }, guard, NOW).state;
    }
    expect(guardToolEvent(state, { phase: 'pre', tool: 'execute_command', input: { command: 'make', task_progress: '- [x] step 9' } }, guard, NOW).answer.kind).toBe('deny');
  });

  it('says nothing and keeps its state as it was when turned off', () => {
    const guard = resolveToolGuardOptions({ enabled: false });
    const { seen, state } = session(guard, 6, failing);
    expect(seen.every((answer) => answer.endsWith(':none'))).toBe(true);
    expect(state).toEqual(initialToolGuardState(guard.stall));
  });

  it('never refuses a call whose result keeps changing, failing or not, and says so at most once', () => {
    const rollout = session(DEFAULT_TOOL_GUARD_OPTIONS, 20, (n) => post('npm test', `Error: ${n} of 20 replicas ready`));
    expect(rollout.seen).not.toContain('pre:deny');
    expect(rollout.seen.filter((answer) => answer === 'post:context').length).toBeLessThanOrEqual(1);
    const health = session(DEFAULT_TOOL_GUARD_OPTIONS, 20, (n) => post('npm test', `{"ready": ${n}}`, 0));
    expect(health.seen).not.toContain('pre:deny');
    expect(health.state.handOff).toBeNull();
  });

  it('says nothing of a polling tool whose result changes, where the same call failing again is worth one nudge', () => {
    const result = (tool: string) => (n: number) => post('npm test', `Error: not ready (${n})`, 1, tool);
    const bash = session(DEFAULT_TOOL_GUARD_OPTIONS, 12, result('Bash'));
    expect(bash.seen.filter((answer) => answer !== 'pre:none' && answer !== 'post:none')).toEqual(['post:context']);
    // never refused, and not told it would be
    expect(bash.messages).toEqual([
      'stopwise: `Bash` failed 4 times in a row with the same input; change the input or try another way. (`Bash` `npm test`, 4 times since step 1.) Next: read the error, change the command or fix what it runs, or try another way.',
    ]);
    const polls = session(DEFAULT_TOOL_GUARD_OPTIONS, 12, result('BashOutput'));
    expect(polls.seen.filter((answer) => answer !== 'pre:none' && answer !== 'post:none')).toEqual([]);
  });

  it('drops the ladder and a pending hand-off once a recorded call gives a new result', () => {
    const { state } = session(DEFAULT_TOOL_GUARD_OPTIONS, 6, failing);
    expect(state.handOff).not.toBeNull();
    const fixed = guardToolEvent(state, post('npm test', 'all 12 tests passed', 0), DEFAULT_TOOL_GUARD_OPTIONS, NOW);
    expect(fixed.answer).toEqual({ kind: 'none' });
    expect(fixed.state).toMatchObject({ ladder: null, handOff: null });
    expect(guardToolEvent(fixed.state, pre('npm test'), DEFAULT_TOOL_GUARD_OPTIONS, NOW).answer).toEqual({ kind: 'none' });
  });

  it('lets a call it has not seen run, whatever is pending', () => {
    const { state } = session(DEFAULT_TOOL_GUARD_OPTIONS, 6, failing);
    expect(guardToolEvent(state, pre('git status'), DEFAULT_TOOL_GUARD_OPTIONS, NOW)).toEqual({ state, answer: { kind: 'none' } });
  });

  it('identifies a Bash call by its command alone: a reworded description or a timeout is the same call', () => {
    const guard = DEFAULT_TOOL_GUARD_OPTIONS;
    let state = initialToolGuardState(guard.stall);
    for (let n = 0; n < 3; n++) {
      state = guardToolEvent(state, { phase: 'post', tool: 'Bash', input: { command: 'make', description: `try ${n}`, timeout: n }, output: 'Error: x', exitCode: 2 }, guard, NOW).state;
    }
    expect(state.calls).toHaveLength(1);
    expect(guardToolEvent(state, { phase: 'pre', tool: 'Bash', input: { command: 'make', description: 'again' } }, guard, NOW).answer.kind).toBe('deny');
  });

  it('stays under 16 KB of JSON after 1,000 calls with 100 KB outputs, and reads back as its own state', () => {
    const guard = DEFAULT_TOOL_GUARD_OPTIONS;
    let state = initialToolGuardState(guard.stall);
    const big = 'x'.repeat(100 * 1024);
    for (let n = 0; n < 1000; n++) {
      const command = `step ${n % 37} ${'y'.repeat(300)}`;
      state = guardToolEvent(state, pre(command), guard, NOW).state;
      state = guardToolEvent(state, post(command, `${big}\nError: failure number ${n % 5}`, n % 3), guard, NOW).state;
    }
    const text = JSON.stringify(state);
    expect(text.length).toBeLessThanOrEqual(16 * 1024);
    expect(state.calls.length).toBeLessThanOrEqual(16);
    expect(isToolGuardState(JSON.parse(text))).toBe(true);
  });
});

describe('isToolGuardState', () => {
  it('refuses state another program wrote, or a cut-short one', () => {
    const good = JSON.parse(JSON.stringify(session(DEFAULT_TOOL_GUARD_OPTIONS, 6, failing).state)) as Record<string, unknown>;
    expect(isToolGuardState(good)).toBe(true);
    for (const bad of [
      null,
      [],
      { ...good, stall: { version: 2 } },
      // A stall state of the earlier version (no pair window, no index of the last new step) is not read.
      { ...good, stall: { ...(good.stall as object), version: 1 } },
      { ...good, calls: 'x' },
      { ...good, calls: [{ label: 1 }] },
      { ...good, calls: Array(17).fill((good.calls as unknown[])[0]) },
      { ...good, totals: { recorded: 1.5, nudges: 0, refusals: 0, handOffs: 0 } },
      { ...good, ladder: { key: 1 } },
      { ...good, handOff: { question: 7 } },
    ]) {
      expect(isToolGuardState(bad), JSON.stringify(bad).slice(0, 80)).toBe(false);
    }
  });
});

describe('resolveToolGuardOptions', () => {
  it('is the default without configuration, fills in the ladder, and lays tool identities over the default ones', () => {
    expect(resolveToolGuardOptions(undefined)).toBe(DEFAULT_TOOL_GUARD_OPTIONS);
    expect(DEFAULT_TOOL_GUARD_OPTIONS).toMatchObject({ enabled: true, ladder: { nudges: 1, refusals: 1, handOff: true } });
    const resolved = resolveToolGuardOptions({ ladder: { nudges: 3 }, stall: { repeatedFailingCall: { repeats: 5 }, tools: { poll_status: { polling: true } } } });
    expect(resolved.ladder).toEqual({ nudges: 3, refusals: 1, handOff: true });
    expect(resolved.stall.repeatedFailingCall).toEqual({ repeats: 5 });
    expect(resolved.stall.tools).toMatchObject({ Bash: { arguments: ['command'] }, BashOutput: { polling: true }, poll_status: { polling: true } });
  });

  it('takes the finding later when asked to: five failures before the nudge', () => {
    const later = { repeatedFailingCall: { repeats: 5 }, repeatedResult: { repeats: 5, failingRepeats: 5 }, repeatedError: { repeats: 5 } };
    const { seen } = session(resolveToolGuardOptions({ stall: later }), 6, failing);
    expect(seen.indexOf('post:context')).toBe(9);
  });
});

describe('fitToolGuardToHost', () => {
  const gemini = { loopDetection: { identicalCalls: 5 } };

  it('leaves the ladder of a host without loop detection as it is', () => {
    expect(fitToolGuardToHost(DEFAULT_TOOL_GUARD_OPTIONS, {})).toBe(DEFAULT_TOOL_GUARD_OPTIONS);
  });

  it('fits the ladder under a host that stops the 5th identical call itself: the nudge with the 3rd failure, the hand-off with the 4th', () => {
    const fitted = fitToolGuardToHost(DEFAULT_TOOL_GUARD_OPTIONS, gemini);
    expect(fitted.ladder).toEqual({ nudges: 1, refusals: 0, handOff: true });
    const { seen, messages, state } = session(fitted, 4, failing);
    expect(seen.join(' ')).toBe('pre:none post:none pre:none post:none pre:none post:context pre:deny');
    expect(messages[1]).toMatch(/A person has been asked to look/);
    expect(state.handOff).not.toBeNull();
  });

  it("caps a user's ladder so that its hand-off still comes before the host's stop, and keeps one that fits", () => {
    const fit = (ladder: Partial<ToolGuardLadder>, stall = {}) => fitToolGuardToHost(resolveToolGuardOptions({ ladder, stall }), gemini).ladder;
    expect(fit({ nudges: 3, refusals: 2 })).toEqual({ nudges: 1, refusals: 0, handOff: true });
    expect(fit({ nudges: 0, refusals: 3 })).toEqual({ nudges: 0, refusals: 0, handOff: true });
    // Without a hand-off, only the first refusal has to come before the host's stop.
    expect(fit({ nudges: 2, refusals: 2, handOff: false })).toEqual({ nudges: 1, refusals: 2, handOff: false });
    // A finding at the second identical failure leaves room for the default ladder.
    expect(fit({}, { repeatedResult: { failingRepeats: 2 } })).toEqual({ nudges: 1, refusals: 1, handOff: true });
    const off = resolveToolGuardOptions({ enabled: false, ladder: { nudges: 4 } });
    expect(fitToolGuardToHost(off, gemini)).toBe(off);
  });
});

describe('describeHandOff and callLabel', () => {
  it('tells the person the question, what was tried, the evidence and what happens after the answer, one a line', () => {
    const { state } = session(DEFAULT_TOOL_GUARD_OPTIONS, 6, failing);
    if (state.handOff === null) throw new Error('no hand-off');
    expect(describeHandOff(state.handOff).split('\n')).toEqual([
      'stopwise: the agent needs a person. The agent keeps repeating `Bash` `npm test` and does not get further: how should it go on?',
      `Tried: It ran it 3 times since step 1 (${NOW.toISOString()}); stopwise nudged it, then refused the call 3 times.`,
      'Evidence: repeated-result: The last 3 steps called `Bash` with the same input and it failed the same way each time; read the error and change the approach. Last error: Error: boom',
      'After your answer: Your answer goes to the agent as the next message; the tool guard then starts counting afresh.',
    ]);
  });

  it('names the tool and the start of its command, input path or JSON', () => {
    expect(callLabel('Bash', { command: 'npm   test\n--watch' })).toBe('`Bash` `npm test --watch`');
    expect(callLabel('Edit', { file_path: 'src/a.ts', old_string: 'a' })).toBe('`Edit` `src/a.ts`');
    expect(callLabel('mcp__db__query', { sql: 'select `x`' })).toBe('`mcp__db__query` `{"sql":"select \'x\'"}`');
    expect(callLabel('Shell', 'ls -la')).toBe('`Shell` `ls -la`');
    expect(callLabel('Bash', { command: 'z'.repeat(200) })).toHaveLength('`Bash` ``'.length + 80);
    expect(callLabel('Read', undefined)).toBe('`Read`');
  });
});
