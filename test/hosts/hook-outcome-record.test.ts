import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/core/policy/decide.js';
import { parseStopPolicy } from '../../src/core/policy/parse-stop-policy.js';
import { initialStopState } from '../../src/core/policy/stop-state.js';
import { DEFAULT_POLICY } from '../../src/core/stop-policy.js';
import { appendHookOutcome, hookStopOutcome } from '../../src/hosts/hook-outcome-record.js';
import type { HookTestResult, HookTestRunner } from '../../src/hosts/hook-test-runner.js';
import { runStopHook } from '../../src/hosts/run-stop-hook.js';
import { parseOutcomeRecords } from '../../src/report/parse-outcome-records.js';

const attempt = (step: number) => ({ loop: { step, recentFingerprints: [] } });
const green = { passed: true, failed: [], ran: 12 };

describe('hookStopOutcome', () => {
  it('is a success for an allow, a steps limit for a hand-off at the cap, a need_help with the message for any other hand-off', () => {
    expect(hookStopOutcome({ kind: 'allow', decision: undefined, attempt: attempt(2), evidence: green, lastMessage: 'Done.' }, DEFAULT_POLICY)).toEqual({
      exit: 'success',
      note: 'the stop hook let the agent stop: the tests passed (12 ran)',
      steps: 2,
      usage: { steps: 2, wallClockMs: 0, inputTokens: 0, outputTokens: 0, cost: 0, toolErrors: 0 },
      text: 'Done.',
      trace: [],
    });
    const capped = hookStopOutcome({ kind: 'handoff', decision: { systemMessage: 'cap' }, attempt: attempt(5), lastMessage: '' }, { maxSteps: 5 });
    expect(capped).toMatchObject({ exit: 'limit', limit: 'steps', source: 'budget', key: 'maxSteps', used: 5, max: 5, steps: 5 });
    const stalled = hookStopOutcome({ kind: 'handoff', decision: { systemMessage: 'stopwise: the agent is not making progress' }, attempt: attempt(3), lastMessage: 'x'.repeat(10_000) }, { maxSteps: 5 });
    expect(stalled).toMatchObject({ exit: 'need_help', question: 'stopwise: the agent is not making progress', waitedMs: 0, steps: 3 });
    expect(stalled?.text.length).toBe(4000);
    // a hand-off before any attempt (the tests could not run) is a need_help at step 0
    expect(hookStopOutcome({ kind: 'handoff', decision: { systemMessage: 'timed out' }, lastMessage: '' }, { maxSteps: 1 })).toMatchObject({ exit: 'need_help', steps: 0 });
  });

  it("is the engine decision's outcome when the answer projects a stop: its exit, its rule, the limit it compared", () => {
    const policy = parseStopPolicy({
      version: 1,
      rules: [
        { id: 'cap', when: { limit: { of: 'steps', max: 3 } }, then: { kind: 'stop', exit: 'limit', reason: 'too_many_stops' } },
        { id: 'green', when: { tests: 'passed' }, then: { kind: 'stop', exit: 'success', reason: 'green' } },
        { id: 'gave_up', when: { tests: 'no_tests_ran' }, then: { kind: 'stop', exit: 'gave_up', reason: 'nothing_to_check' } },
        { id: 'red', when: { tests: 'failed' }, then: { kind: 'retry', reason: 'red' } },
      ],
    });
    const red = { passed: false, failed: ['auth > refreshes'], ran: 3 };
    const at = (step: number, tests: typeof red) => decide(policy, { ...initialStopState(policy), step: step - 1 }, { step, tests, output: '' }).decision;
    // The cap is the policy's own (3 stop attempts), not the hook's default maxSteps.
    const limit = hookStopOutcome({ kind: 'handoff', decision: { systemMessage: 'cap' }, attempt: attempt(3), evidence: red, lastMessage: '', engineDecision: at(3, red) }, DEFAULT_POLICY);
    expect(limit).toMatchObject({ exit: 'limit', limit: 'steps', key: 'maxSteps', used: 3, max: 3, decision: { rule: 'cap', reason: 'too_many_stops' } });
    const none = { passed: false, failed: [], ran: 0 };
    const gaveUp = hookStopOutcome({ kind: 'handoff', decision: { systemMessage: 'nothing ran' }, attempt: attempt(1), evidence: none, lastMessage: '', engineDecision: at(1, none) }, DEFAULT_POLICY);
    expect(gaveUp).toMatchObject({ exit: 'gave_up', decision: { rule: 'gave_up' } });
    const success = hookStopOutcome({ kind: 'allow', decision: undefined, attempt: attempt(1), evidence: green, lastMessage: '', engineDecision: at(1, green) }, DEFAULT_POLICY);
    expect(success).toMatchObject({ exit: 'success', note: 'the stop hook let the agent stop: the tests passed (12 ran)', decision: { rule: 'green' } });
    // A retry the block cap turned into a hand-off is a need_help with the message, and keeps the decision.
    const capped = hookStopOutcome({ kind: 'handoff', decision: { systemMessage: 'blocked twice' }, attempt: attempt(2), evidence: red, lastMessage: '', engineDecision: at(2, red) }, DEFAULT_POLICY);
    expect(capped).toMatchObject({ exit: 'need_help', question: 'blocked twice', decision: { kind: 'retry', rule: 'red' } });
  });

  it('is nothing for a block, and for a stop the hook did not decide', () => {
    expect(hookStopOutcome({ kind: 'block', decision: { decision: 'block', reason: 'r' }, attempt: attempt(1), lastMessage: '' }, DEFAULT_POLICY)).toBeUndefined();
    expect(hookStopOutcome({ kind: 'allow', decision: undefined, lastMessage: '' }, DEFAULT_POLICY)).toBeUndefined();
  });

  it('turns a file it cannot append to into a warning, never a rejection', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'stopwise-hook-outcomes-'));
    writeFileSync(join(folder, 'plain'), '');
    const warning = await appendHookOutcome(join(folder, 'plain', 'o.jsonl'), { kind: 'allow', decision: undefined, attempt: attempt(1), lastMessage: '' }, { policy: DEFAULT_POLICY, at: new Date(0) });
    expect(warning).toMatch(/^stopwise: the outcome of this stop could not be appended to .*plain\/o\.jsonl \(.*\); the stop itself is not affected\.$/);
  });
});

function runner(results: HookTestResult[]): HookTestRunner {
  return {
    async run() {
      const next = results.shift();
      if (next === undefined) throw new Error('no more scripted test results');
      return next;
    },
  };
}

describe('the stop hook with outcomesFile', () => {
  it('appends a record when it lets a stop through or hands off, none when it blocks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-hook-outcomes-'));
    writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'unused' }, outcomesFile: 'logs/outcomes.jsonl', policy: { maxSteps: 3 } }));
    const red = { passed: false, failed: ['auth > login'], ran: 4 };
    const testRunner = runner([
      { outcome: 'ran', evidence: red },
      { outcome: 'ran', evidence: { ...green, ran: 4 } },
      { outcome: 'ran', evidence: red },
      { outcome: 'ran', evidence: { ...red, failed: ['auth > logout'] } },
    ]);
    let clock = Date.UTC(2026, 2, 2, 10);
    const options = { env: {}, testRunner, now: () => new Date(clock) };
    const minuteLater = () => (clock += 60_000);
    const stdin = (session: string) => JSON.stringify({ session_id: session, cwd: dir, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'I am done.' });
    const file = join(dir, 'logs', 'outcomes.jsonl');

    expect(JSON.parse((await runStopHook('claude-code', stdin('a'), options)).stdout)).toMatchObject({ decision: 'block' });
    expect(existsSync(file)).toBe(false);
    minuteLater();
    expect((await runStopHook('claude-code', stdin('a'), options)).stdout).toBe('');
    minuteLater();
    expect(JSON.parse((await runStopHook('claude-code', stdin('b'), options)).stdout)).toMatchObject({ decision: 'block' });
    minuteLater();
    const handoff = await runStopHook('claude-code', stdin('b'), options);
    expect(JSON.parse(handoff.stdout)).toMatchObject({ systemMessage: expect.stringMatching(/still fail/) });

    const read = parseOutcomeRecords(readFileSync(file, 'utf8'), file);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.runs.map((run) => [run.outcome.exit, run.outcome.steps])).toEqual([
      ['success', 2],
      ['need_help', 2],
    ]);
    expect(read.runs[1]?.outcome.note).toMatch(/^stopwise: the tests still fail after the agent was asked to fix them/);
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { at: string; outcome: { text: string } });
    expect(lines.map((line) => line.at)).toEqual(['2026-03-02T10:01:00.000Z', '2026-03-02T10:03:00.000Z']);
    expect(lines[0]?.outcome.text).toBe('I am done.');
  });

  it('warns and still answers when the outcomes file cannot be written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-hook-outcomes-'));
    mkdirSync(join(dir, 'outcomes.jsonl'));
    writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'unused' }, outcomesFile: 'outcomes.jsonl' }));
    const run = await runStopHook(
      'codex',
      JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'Stop', last_assistant_message: 'done' }),
      { env: {}, testRunner: runner([{ outcome: 'ran', evidence: green }]) },
    );
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^stopwise: the outcome of this stop could not be appended to .*outcomes\.jsonl \(EISDIR.*\); the stop itself is not affected\.\n$/);
  });
});
