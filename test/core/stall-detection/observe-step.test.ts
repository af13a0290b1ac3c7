import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectStall, observeStep } from '../../../src/core/stall-detection/observe-step.js';
import { DEFAULT_STALL_OPTIONS, type StallOptionsInput } from '../../../src/core/stall-detection/stall-options.js';
import { initialStallState, type StallState } from '../../../src/core/stall-detection/stall-state.js';
import type { StallStep } from '../../../src/core/stall-detection/stall-step.js';
import type { StallFinding } from '../../../src/core/stall-detection/stall-finding.js';

const bash = (command: string, output: string, exitCode = 0): StallStep => ({ tool: 'bash', input: { command }, output, exitCode });
const times = (n: number, step: StallStep): StallStep[] => Array.from({ length: n }, () => step);

/** Every finding of a fold, one per step (undefined where none). */
function findings(steps: readonly StallStep[], options?: StallOptionsInput): (StallFinding | undefined)[] {
  let state = initialStallState(options);
  return steps.map((step) => {
    const observed = observeStep(state, step, options);
    state = observed.state;
    return observed.stall;
  });
}

describe('observeStep: patterns', () => {
  it('finds the same call with the same result on its 4th repeat, with where it began', () => {
    const steps = [bash('ls', 'a'), ...times(4, bash('cat x', 'same'))];
    expect(findings(steps).slice(0, 4)).toEqual([undefined, undefined, undefined, undefined]);
    expect(detectStall(steps)).toMatchObject({ pattern: 'repeated-result', step: 4, repeats: 4, since: 1 });
    expect(detectStall(steps)?.message).toMatch(/`bash` with the same input/);
  });

  it('compares outputs after normalising timestamps, durations, pids and whitespace', () => {
    const steps = [0, 1, 2, 3].map((i) => bash('make', `built in ${i + 1}.2s at 2026-01-0${i + 1}T10:00:00Z (pid ${100 + i})  ok\n\n`));
    expect(detectStall(steps)?.pattern).toBe('repeated-result');
  });

  it('tells errors apart by their line numbers', () => {
    const steps = [10, 20, 30, 40].map((line) => bash('python a.py', `  File "a.py", line ${line}\nSyntaxError: invalid syntax`, 1));
    expect(detectStall(steps, { repeatedFailingCall: false })).toBeUndefined();
    const same = times(4, bash('python a.py', '  File "a.py", line 10\nSyntaxError: invalid syntax', 1));
    expect(detectStall(same, { repeatedFailingCall: false, repeatedResult: false })?.pattern).toBe('repeated-error');
  });

  it('finds the same call failing 4 times in a row even when the error texts differ, and the same failure at its 3rd repeat', () => {
    const steps = ['not found', 'still not found', 'another error', 'a fourth one'].map((text) => ({ tool: 'run', input: 'x', output: text, error: true }));
    expect(findings(steps.slice(0, 3))).toEqual([undefined, undefined, undefined]);
    expect(detectStall(steps)).toMatchObject({ pattern: 'repeated-failing-call', step: 3, repeats: 4, since: 0 });
    const same = times(3, { tool: 'run', input: 'x', output: 'Error: not found', error: true });
    expect(detectStall(same)).toMatchObject({ pattern: 'repeated-result', step: 2, repeats: 3 });
  });

  it('lets infrastructure errors, polling and waiting calls repeat longer', () => {
    const refused = times(5, bash('curl -s localhost:3000/health', 'curl: (7) Failed to connect to localhost port 3000: Connection refused', 7));
    expect(detectStall(refused)).toBeUndefined();
    expect(detectStall([...refused, ...times(3, refused[0] as StallStep)])).toMatchObject({ pattern: 'repeated-result', repeats: 8 });
    expect(detectStall(times(11, bash('sleep 30', '')))).toBeUndefined();
    expect(detectStall(times(11, { tool: 'BashOutput', input: { bash_id: '1' }, output: 'still running' }))).toBeUndefined();
    expect(detectStall(times(12, { tool: 'BashOutput', input: { bash_id: '1' }, output: 'still running' }))).toMatchObject({ repeats: 12 });
  });

  it('never counts a browser scroll, and lets it neither break nor make a streak', () => {
    const scroll: StallStep = { tool: 'browser_action', input: { action: 'scroll_down' } };
    expect(detectStall(times(20, scroll))).toBeUndefined();
    const read = { tool: 'read_file', input: { path: 'a' } };
    expect(detectStall([read, scroll, read, scroll, read, read])).toMatchObject({ pattern: 'repeated-result', repeats: 4 });
  });

  it('ignores progress notes in the input (task_progress) and starts afresh at a user message', () => {
    const steps = [0, 1, 2, 3].map((i) => ({ tool: 'read_file', input: { path: 'a.ts', task_progress: `step ${i}` }, output: 'same' }));
    expect(detectStall(steps)).toMatchObject({ pattern: 'repeated-result', repeats: 4 });
    expect(detectStall([...steps.slice(0, 3), { role: 'user', text: 'try again' }, ...steps.slice(0, 3)])).toBeUndefined();
  });

  it('counts a call with no result as a repeat of the same call (Roo Code, Cline and Gemini CLI count calls alone)', () => {
    const read: StallStep = { tool: 'read_file', input: { path: 'a.ts' } };
    expect(detectStall(times(3, read))).toBeUndefined();
    expect(detectStall(times(4, read))).toMatchObject({ pattern: 'repeated-result', repeats: 4 });
    expect(detectStall(times(4, read))?.message).toBe('The last 4 steps called `read_file` with the same input; stop repeating it and change the approach.');
  });

  it('counts an event of the environment (no call, no text) only against itself, up to 10 in a row (OpenHands stops at 10 condensations)', () => {
    const condensation: StallStep = {};
    expect(detectStall(times(9, condensation))).toBeUndefined();
    expect(detectStall(times(10, condensation))).toMatchObject({ pattern: 'repeated-result', repeats: 10, since: 0, step: 9 });
    // Events do not make a call look repeated: the calls around them are counted as they are.
    const call = bash('cat a', 'x');
    expect(detectStall([call, condensation, call, condensation, call, condensation, call], { revisit: false, repeatedPair: false })).toBeUndefined();
  });

  it('needs known results for a cycle: calls with no result are not one', () => {
    const a = { tool: 'a', input: {} };
    const b = { tool: 'b', input: {} };
    const c = { tool: 'c', input: {} };
    expect(detectStall([a, b, c, a, b, c, a, b, c])).toBeUndefined();
  });

  it('counts the same (call, result) pair in a window, in a row or not', () => {
    const check = bash('cat notes.md', 'the same notes');
    const others = [1, 2, 3, 4, 5, 6].map((i) => bash(`grep -n x${i} src`, `line ${i}`));
    const steps = others.flatMap((step) => [step, check]);
    expect(detectStall(steps, { revisit: false })).toMatchObject({ pattern: 'repeated-pair', repeats: 6, step: 11 });
    expect(detectStall(steps, { revisit: false, repeatedPair: { repeats: 6, window: 10 } })).toBeUndefined();
  });

  it('finds the same error from calls that differ, and counts infrastructure errors apart', () => {
    const error = ['cd a', 'cd ./a', 'cd a/', 'cd "a"'].map((cmd) => bash(cmd, `bash: line 12: cd: a: No such file or directory`, 1));
    expect(detectStall(error)).toMatchObject({ pattern: 'repeated-error', repeats: 4, since: 0 });
    const limited = Array.from({ length: 7 }, (_, i) => bash(`curl -s api?page=${i}`, 'HTTP 429 Too Many Requests', 22));
    expect(detectStall(limited)).toBeUndefined();
    expect(detectStall([...limited, bash('curl -s api?page=9', 'HTTP 429 Too Many Requests', 22)])).toMatchObject({
      pattern: 'infrastructure-errors',
      repeats: 8,
    });
  });

  it('finds short cycles of distinct steps with the same results', () => {
    const a = bash('ls', 'x');
    const b = { tool: 'read', input: { path: 'x' }, output: 'content' };
    expect(detectStall([a, b, a, b, a])).toBeUndefined();
    expect(detectStall([a, b, a, b, a, b])).toMatchObject({ pattern: 'cycle', repeats: 3, since: 0, step: 5 });
    const c = bash('pwd', '/w');
    expect(detectStall([c, a, b, c, a, b, c, a, b], { revisit: false })).toMatchObject({ pattern: 'cycle', repeats: 3, since: 0 });
  });

  it('finds steps that only revisit earlier (call, result) pairs, with no period', () => {
    const s = ['open A', 'goto 10', 'open B', 'search x', 'open C'].map((cmd) => bash(cmd, `out of ${cmd}`));
    const [a, b, c, d, e] = s as [StallStep, StallStep, StallStep, StallStep, StallStep];
    expect(detectStall([a, b, c, d, e, c, a, d, b, e], { cycle: false })).toBeUndefined();
    expect(detectStall([a, b, c, d, e, c, a, d, b, e, a], { cycle: false })).toMatchObject({ pattern: 'revisit', repeats: 6, since: 5 });
  });

  it('finds, when turned on, a failing check whose output did not change across edits (off by default)', () => {
    const check = bash('python repro.py', 'AssertionError: expected 2, got 3', 1);
    const steps = [1, 2, 3, 4].flatMap((i) => [{ tool: 'edit', input: { path: 'a.py', text: `v${i}` }, output: `edited ${i}` }, check]);
    expect(detectStall(steps)).toBeUndefined();
    // The edits in between are new steps: with nothingNew (the default once on) they are progress.
    expect(detectStall(steps, { noProgress: { repeats: 4 } })).toBeUndefined();
    expect(detectStall(steps, { noProgress: { repeats: 4, nothingNew: false } })).toMatchObject({
      pattern: 'no-progress',
      repeats: 4,
      since: 1,
      step: 7,
      message: '`bash` gave the same failing result 4 times despite the steps in between; those changes do not fix it, so rethink the cause.',
    });
    const known = bash('cat a.py', 'v1');
    const stale = [check, known, check, known, check, known, check, known, check];
    expect(detectStall(stale, { noProgress: { repeats: 4 }, cycle: false, revisit: false, repeatedPair: false })).toMatchObject({
      pattern: 'no-progress',
      repeats: 4,
      message: '`bash` gave the same failing result 4 times and nothing new came in between; rethink the cause.',
    });
    const changing = [1, 2, 3, 4].flatMap((i) => [
      { tool: 'edit', input: { path: 'a.py', text: `v${i}` }, output: `edited ${i}` },
      bash('python repro.py', `AssertionError: expected 2, got ${i + 2}`, 1),
    ]);
    expect(detectStall(changing, { noProgress: { nothingNew: false } })).toBeUndefined();
  });

  it('finds, when turned on, the same failing-test set across checks, and forgets it once the tests pass', () => {
    const failing = { passed: false, failed: ['b', 'a'], ran: 10 };
    const steps = [1, 2, 3, 4].map((i) => ({ tool: 'test', input: { run: i }, output: `run ${i}`, tests: { ...failing, failed: i % 2 ? ['a', 'b'] : ['b', 'a'] } }));
    const on = { noProgress: { repeats: 4 } };
    expect(detectStall(steps)).toBeUndefined();
    expect(detectStall(steps, on)).toMatchObject({ pattern: 'no-progress', repeats: 4, since: 0 });
    const passing = { tool: 'test', input: { run: 0 }, output: 'ok', tests: { passed: true, failed: [], ran: 10 } };
    expect(detectStall([...steps.slice(0, 3), passing, ...steps.slice(0, 3)], on)).toBeUndefined();
  });

  it('finds a monologue of messages with no tool call and no reply; a reply ends it', () => {
    const say = (text: string): StallStep => ({ text });
    expect(detectStall([say('a'), say('b'), say('c')])).toMatchObject({ pattern: 'monologue', repeats: 3, since: 0 });
    expect(detectStall([say('a'), { text: 'b', output: 'answer' }, say('c'), say('d')])).toBeUndefined();
  });

  it('finds, when turned on, the same call repeated whatever it returned, except for a declared polling tool', () => {
    const poll = Array.from({ length: 8 }, (_, i) => ({ tool: 'job_status', input: { id: 7, attempt: i }, output: `running ${i * 10}%` }));
    const identity = { tools: { job_status: { arguments: ['id'] } } };
    expect(detectStall(poll, identity)).toBeUndefined();
    expect(detectStall(poll, { ...identity, repeatedCall: { repeats: 8 } })).toMatchObject({ pattern: 'repeated-call', repeats: 8 });
    expect(detectStall(poll, { tools: { job_status: { arguments: ['id'], polling: true } }, repeatedCall: {} })).toBeUndefined();
  });

  it('keeps reporting a stall while its pattern holds, and stops when it breaks', () => {
    const same = bash('cat x', 'same');
    const out = findings([...times(5, same), bash('ls', 'other')]);
    expect(out.map((f) => f?.pattern)).toEqual([undefined, undefined, undefined, 'repeated-result', 'repeated-result', undefined]);
  });

  it('turns a pattern off with false', () => {
    expect(detectStall(times(4, bash('cat x', 'same')), { repeatedResult: false, revisit: false, repeatedPair: false })).toBeUndefined();
  });

  it('leaves the state passed in unchanged', () => {
    const state = initialStallState();
    const copy = JSON.stringify(state);
    observeStep(state, bash('ls', 'x'));
    expect(JSON.stringify(state)).toBe(copy);
  });
});

const stepArbitrary: fc.Arbitrary<StallStep> = fc.oneof(
  fc.record(
    {
      tool: fc.constantFrom('bash', 'edit', 'read'),
      input: fc.constantFrom('ls', 'cat a', { path: 'a', text: 'x' }, { b: 1, a: 2 }),
      output: fc.constantFrom('', 'ok', 'Error: boom', 'HTTP 503 Service Unavailable', 'took 3ms'),
      exitCode: fc.constantFrom(0, 1, null),
      tests: fc.record({ passed: fc.boolean(), failed: fc.constantFrom([], ['a'], ['a', 'b']), ran: fc.constantFrom(0, 3) }),
    },
    { requiredKeys: ['tool'] },
  ),
  fc.record({ text: fc.constantFrom('hmm', 'plan'), output: fc.constantFrom('', 'reply') }, { requiredKeys: ['text'] }),
  // A user message, an event of the environment, a scroll, a call whose result is not known.
  fc.constantFrom<StallStep>({ role: 'user', text: 'go on' }, {}, { tool: 'browser_action', input: { action: 'scroll_down' } }, { tool: 'read', input: 'ls' }),
);

describe('observeStep: state', () => {
  it('gives the same findings when the state goes through JSON between any two steps, and stays small', () => {
    fc.assert(
      fc.property(fc.array(stepArbitrary, { maxLength: 120 }), fc.array(fc.boolean(), { maxLength: 120 }), (steps, trips) => {
        let direct: StallState = initialStallState();
        let tripped: StallState = initialStallState();
        for (const [i, step] of steps.entries()) {
          const a = observeStep(direct, step);
          const b = observeStep(tripped, step);
          expect(b.stall).toEqual(a.stall);
          expect(JSON.stringify(b.state).length).toBeLessThanOrEqual(8 * 1024);
          direct = a.state;
          tripped = trips[i] === true ? (JSON.parse(JSON.stringify(b.state)) as StallState) : b.state;
        }
        expect(tripped).toEqual(direct);
      }),
      { seed: 24 },
    );
  });

  it('the fold finds what the incremental detector finds first', () => {
    fc.assert(
      fc.property(fc.array(stepArbitrary, { maxLength: 60 }), (steps) => {
        expect(detectStall(steps)).toEqual(findings(steps).find((f) => f !== undefined));
      }),
      { seed: 24 },
    );
  });

  it(
    // Every window and set the state keeps is full well before 1,000 steps; the memory figure of long runs is in the bench.
    'holds at most 8 KB of JSON over 1,000 steps of 100 KB outputs',
    () => {
      const line = 'at com.example.Service.handle(Service.java:42) while reading the request body; retrying\n';
      const body = line.repeat(Math.ceil(100_000 / line.length)).slice(0, 100_000);
      let state = initialStallState();
      let largest = 0;
      for (let i = 0; i < 1_000; i++) {
        const output = `${i}\n${body}`;
        state = observeStep(state, { tool: `tool${i % 7}`, input: { n: i }, output, exitCode: i % 2 }).state;
        if (i % 50 === 0) largest = Math.max(largest, JSON.stringify(state).length);
      }
      largest = Math.max(largest, JSON.stringify(state).length);
      expect(state.steps).toBe(1_000);
      expect(largest).toBeLessThanOrEqual(8 * 1024);
    },
    180_000,
  );

  it('rejects bad options', () => {
    expect(() => initialStallState({ repeatedResult: { repeats: 1 } })).toThrow(TypeError);
    expect(() => initialStallState({ cycle: { maxPeriod: 40, repeats: 3 } })).toThrow(/maxPeriod/);
    expect(initialStallState(DEFAULT_STALL_OPTIONS).steps).toBe(0);
  });
});
