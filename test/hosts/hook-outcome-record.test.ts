import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decide, initialStopState } from '../../src/core/policy/decide.js';
import { parseStopPolicy } from '../../src/core/policy/parse-stop-policy.js';
import type { StopEvent } from '../../src/core/policy/stop-event.js';
import type { TestEvidence } from '../../src/core/test-evidence.js';
import type { DecidedStop } from '../../src/hosts/answer-stop.js';
import { appendHookOutcome, hookStopOutcome } from '../../src/hosts/hook-outcome-record.js';
import type { StopAnswer } from '../../src/hosts/host.js';
import { newSessionState } from '../../src/hosts/session-state.js';

const NOW = new Date('2026-03-02T10:00:00.000Z');
const GREEN: TestEvidence = { passed: true, failed: [], ran: 12 };
const RED: TestEvidence = { passed: false, failed: ['auth > refreshes'], ran: 3 };
const policy = parseStopPolicy({
  version: 2,
  rules: [
    { id: 'cap', when: { limit: { of: 'steps', max: 3 } }, then: { kind: 'stop', exit: 'limit', reason: 'too_many_stops' } },
    { id: 'green', when: { tests: 'passed' }, then: { kind: 'stop', exit: 'success', reason: 'green' } },
    { id: 'nothing', when: { tests: 'no_tests_ran' }, then: { kind: 'stop', exit: 'gave_up', reason: 'nothing_to_check' } },
    { id: 'red', when: { tests: 'failed' }, then: { kind: 'retry', reason: 'red' } },
    { id: 'wait', when: { always: true }, then: { kind: 'continue', reason: 'keep_going' } },
  ],
});
const decided = (step: number, event: Omit<StopEvent, 'step'>) => decide(policy, { ...initialStopState(policy), step: step - 1 }, { step, ...event }).decision;
const stopped = (answer: StopAnswer, step: number, tests?: TestEvidence): DecidedStop => ({ state: newSessionState(NOW), answer, step, ...(tests === undefined ? {} : { tests }) });

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('hookStopOutcome', () => {
  it("is a success, with what let the agent stop, for a stop with exit success, and the decision's rule", () => {
    const outcome = hookStopOutcome(stopped({ decision: decided(2, { tests: GREEN }) }, 2, GREEN), { kind: 'allow' }, 'Done.');
    expect(outcome).toMatchObject({
      exit: 'success',
      note: 'the stop hook let the agent stop: the tests passed (12 ran)',
      steps: 2,
      usage: { steps: 2, wallClockMs: 0, inputTokens: 0, outputTokens: 0, cost: 0, toolErrors: 0 },
      text: 'Done.',
      trace: [],
      decision: { rule: 'green', reason: 'green' },
    });
  });

  it("is the decision's own outcome for any other stop: the limit it compared, or a need for help with the line for the person", () => {
    expect(hookStopOutcome(stopped({ decision: decided(3, { tests: RED }) }, 3, RED), { kind: 'handoff', message: 'capped' }, '')).toMatchObject({
      exit: 'limit',
      limit: 'steps',
      source: 'budget',
      key: 'maxSteps',
      used: 3,
      max: 3,
      steps: 3,
      decision: { rule: 'cap', reason: 'too_many_stops' },
    });
    const none = { passed: false, failed: [], ran: 0 };
    expect(hookStopOutcome(stopped({ decision: decided(1, { tests: none }) }, 1, none), { kind: 'handoff', message: 'nothing ran' }, '')).toMatchObject({ exit: 'gave_up', decision: { rule: 'nothing' } });
  });

  it("is a need for help, asked of nobody, for a hand-off of the hook's own and for a continue, the line for the person as its question", () => {
    const own = hookStopOutcome(stopped({ handOff: 'stopwise: the tests timed out', reason: 'tests_timed_out' }, 1), { kind: 'handoff', message: 'stopwise: the tests timed out' }, 'x'.repeat(10_000));
    expect(own).toMatchObject({ exit: 'need_help', question: 'stopwise: the tests timed out', waitedMs: 0, steps: 1 });
    expect(own).not.toHaveProperty('decision');
    expect(own?.text).toHaveLength(4000);
    const waiting = decide(parseStopPolicy({ version: 2, rules: [{ id: 'wait', when: { always: true }, then: { kind: 'continue', reason: 'keep_going' } }] }), initialStopState(policy), { step: 1 }).decision;
    expect(hookStopOutcome(stopped({ decision: waiting }, 1), { kind: 'handoff', message: 'stopwise: the policy did not decide' }, '')).toMatchObject({
      exit: 'need_help',
      question: 'stopwise: the policy did not decide',
      waitedMs: 0,
      decision: { kind: 'continue', rule: 'wait' },
    });
  });

  it('is nothing for a block, whose run goes on, and for a stop the hook did not check', () => {
    expect(hookStopOutcome(stopped({ decision: decided(1, { tests: RED }) }, 1, RED), { kind: 'block', reason: 'r' }, '')).toBeUndefined();
    expect(hookStopOutcome(stopped({ skipped: 'the run ended aborted' }, 1), { kind: 'allow' }, '')).toBeUndefined();
  });
});

describe('appendHookOutcome', () => {
  it('appends one line the report reads, with the time and the task type', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-hook-outcome-'));
    folders.push(dir);
    const file = join(dir, 'logs/outcomes.jsonl');
    const outcome = hookStopOutcome(stopped({ decision: decided(1, { tests: GREEN }) }, 1, GREEN), { kind: 'allow' }, 'Done.');
    if (outcome === undefined) throw new Error('no outcome');
    expect(await appendHookOutcome(file, outcome, { at: NOW, taskType: 'bugfix' })).toBeUndefined();
    expect(await appendHookOutcome(file, outcome, { at: NOW })).toBeUndefined();
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ at: NOW.toISOString(), taskType: 'bugfix', outcome: { exit: 'success', text: 'Done.' } });
    expect(lines[1]).not.toHaveProperty('taskType');
  });

  it('turns a file it cannot append to into a warning, never a rejection', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-hook-outcome-'));
    folders.push(dir);
    writeFileSync(join(dir, 'plain'), '');
    const outcome = hookStopOutcome(stopped({ handOff: 'stopwise: look', reason: 'deadline' }, 1), { kind: 'handoff', message: 'stopwise: look' }, '');
    if (outcome === undefined) throw new Error('no outcome');
    expect(await appendHookOutcome(join(dir, 'plain/o.jsonl'), outcome, { at: NOW })).toMatch(
      /^stopwise: the outcome of this stop could not be appended to .*plain\/o\.jsonl \(.*\); the stop itself is not affected\.$/,
    );
  });
});
