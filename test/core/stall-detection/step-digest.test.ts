import { describe, expect, it } from 'vitest';
import { DEFAULT_STALL_OPTIONS } from '../../../src/core/stall-detection/stall-options.js';
import { digestStep } from '../../../src/core/stall-detection/step-digest.js';

describe('digestStep', () => {
  it('keeps digests and flags, not the output', () => {
    const big = 'x'.repeat(50_000);
    const d = digestStep({ tool: 'bash', input: 'make', output: `${big}\nError: boom`, exitCode: 2 }, DEFAULT_STALL_OPTIONS);
    expect(d).toMatchObject({ call: true, tool: 'bash', failed: true, signature: 'Error: boom', infrastructure: false });
    expect(d.callDigest).toMatch(/^[0-9a-f]{16}$/);
    expect(JSON.stringify(d).length).toBeLessThan(400);
  });

  it('infers a failure only when the step does not say', () => {
    expect(digestStep({ tool: 't', output: 'Error: x' }, DEFAULT_STALL_OPTIONS).failed).toBe(true);
    expect(digestStep({ tool: 't', output: 'Error: x', exitCode: 0 }, DEFAULT_STALL_OPTIONS).failed).toBe(false);
    expect(digestStep({ tool: 't', output: 'Error: x' }, { ...DEFAULT_STALL_OPTIONS, inferErrors: false }).failed).toBe(false);
    expect(digestStep({ text: 'hmm' }, DEFAULT_STALL_OPTIONS)).toMatchObject({ call: false, silentMessage: true });
  });

  it('marks the steps every pattern treats apart: a user turn, an event, a call with no result, scrolling and polling', () => {
    expect(digestStep({ role: 'user', text: 'try again' }, DEFAULT_STALL_OPTIONS)).toMatchObject({ turn: true, call: false });
    expect(digestStep({}, DEFAULT_STALL_OPTIONS)).toMatchObject({ event: true, call: false });
    expect(digestStep({ tool: 'read_file', input: { path: 'a' } }, DEFAULT_STALL_OPTIONS)).toMatchObject({ resultKnown: false });
    expect(digestStep({ tool: 'read_file', input: { path: 'a' }, output: '' }, DEFAULT_STALL_OPTIONS).resultKnown).toBeUndefined();
    // Roo Code's scroll exemption; OpenClaw's known poll tools; a command that only waits, or an empty one (OpenHands).
    expect(digestStep({ tool: 'browser_action', input: { action: 'scroll_up' } }, DEFAULT_STALL_OPTIONS).repeatable).toBe(true);
    expect(digestStep({ tool: 'browser_action', input: { action: 'click' } }, DEFAULT_STALL_OPTIONS).repeatable).toBeUndefined();
    expect(digestStep({ tool: 'process', input: { action: 'poll', id: 1 } }, DEFAULT_STALL_OPTIONS).polling).toBe(true);
    expect(digestStep({ tool: 'process', input: { action: 'kill', id: 1 } }, DEFAULT_STALL_OPTIONS).polling).toBe(false);
    expect(digestStep({ tool: 'command_status', input: { id: 1 } }, DEFAULT_STALL_OPTIONS).polling).toBe(true);
    for (const command of ['sleep 30', 'sleep 5s && sleep 1', 'wait', '']) expect(digestStep({ tool: 'bash', input: { command } }, DEFAULT_STALL_OPTIONS).polling, command).toBe(true);
    expect(digestStep({ tool: 'bash', input: 'sleep 30; make' }, DEFAULT_STALL_OPTIONS).polling).toBe(false);
  });

  it('digests two runs of one failing node:test the same when only the process group and durations changed, with the error as its signature', () => {
    const run = (pgid: number, ms: number) => ({
      tool: 'run_shell_command',
      input: { command: 'npm test', description: `try ${pgid}` },
      output: [
        `Output: ✖ adds (${ms}ms)`,
        'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
        ...Array.from({ length: 10 }, (_, i) => `    at f${i} (node:internal/test_runner/test:${i}:1)`),
        '  {',
        "  code: 'ERR_ASSERTION',",
        '}',
        'Exit Code: 1',
        `Process Group PGID: ${pgid}`,
      ].join('\n'),
    });
    const options = { ...DEFAULT_STALL_OPTIONS, tools: { run_shell_command: { arguments: ['command'] } } };
    const first = digestStep(run(101, 4.8), options);
    const second = digestStep(run(202, 5.1), options);
    // No status given: the failure is read from the output, whose last lines hold the error under its stack.
    expect(first).toMatchObject({ failed: true, signature: 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:' });
    expect(second).toEqual(first);
  });

  it('leaves progress notes out of the call, cuts a long error line and digests the failing-test set whatever its order', () => {
    const withNote = (note: string) => digestStep({ tool: 'read_file', input: { path: 'a', task_progress: note } }, DEFAULT_STALL_OPTIONS).callDigest;
    expect(withNote('- [x] 1')).toBe(withNote('- [x] 2'));
    const { ignoredArguments: _, ...without } = DEFAULT_STALL_OPTIONS;
    expect(digestStep({ tool: 'read_file', input: { path: 'a', task_progress: '1' } }, without).callDigest).not.toBe(
      digestStep({ tool: 'read_file', input: { path: 'a', task_progress: '2' } }, without).callDigest,
    );
    expect(digestStep({ tool: 'bash', output: `Error: ${'x'.repeat(400)}`, exitCode: 1 }, DEFAULT_STALL_OPTIONS).signature).toHaveLength(160);
    const tests = (failed: string[]) => digestStep({ tool: 'bash', output: '', tests: { passed: false, failed, ran: 5 } }, DEFAULT_STALL_OPTIONS);
    expect(tests(['b', 'a']).tests).toBe(tests(['a', 'b']).tests);
    expect(tests(['a', 'b'])).toMatchObject({ failedTests: 2 });
    expect(tests(['a']).tests).not.toBe(tests(['a', 'b']).tests);
    expect(digestStep({ tool: 'bash', output: '', tests: { passed: true, failed: [], ran: 5 } }, DEFAULT_STALL_OPTIONS).tests).toBeNull();
    expect(digestStep({ tool: 'bash', output: '' }, DEFAULT_STALL_OPTIONS).tests).toBeUndefined();
  });

  it('tells user turns apart by their normalised text', () => {
    const turn = (text: string) => digestStep({ role: 'user', text }, DEFAULT_STALL_OPTIONS).callDigest;
    expect(turn('try again at 10:11:12')).toBe(turn('try again at 09:00:01'));
    expect(turn('try again')).not.toBe(turn('use pg instead'));
  });

  it('reads an infrastructure failure from the final lines of the output, whatever line names the error', () => {
    const reset = digestStep({ tool: 'bash', input: 'npm install', output: 'npm ERR! code ECONNRESET\nnpm ERR! network request failed', exitCode: 1 }, DEFAULT_STALL_OPTIONS);
    expect(reset).toMatchObject({ failed: true, infrastructure: true });
    expect(digestStep({ tool: 'bash', input: 'npm test', output: 'Error: 1 != 2', exitCode: 1 }, DEFAULT_STALL_OPTIONS).infrastructure).toBe(false);
  });
});
