import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SEED_STOP_POLICY } from '../../src/core/policy/seed-stop-policy.js';
import { runCli } from './run-cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'stopwise-replay-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const write = (name: string, text: string) => {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
};

describe('stopwise replay (child process)', () => {
  it('replays the bundled examples and prints a table per run and a summary', async () => {
    const run = await runCli(['replay', 'examples/traces']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe(`policy: seed (8 rules: ${SEED_STOP_POLICY.rules.map((rule) => rule.id).join(', ')})`);
    expect(run.stdout).toMatch(/run examples\/traces\/01-done-after-retries\.jsonl \[feature\]/);
    expect(run.stdout).toMatch(/step\s+tests\s+lowest\s+outcome\s+reason\s+rule\n/);
    expect(run.stdout).toMatch(/ {3}3 {2}48 passed {4}0\.86 noOpenQuestions {4}stop success {2}tests_and_criteria_passed {2}tests_and_criteria_passed\n/);
    expect(run.stdout).toContain('=> stop (success) at step 3 by rule tests_and_criteria_passed: 48 tests passed; lowest criterion noOpenQuestions = 0.86 >= 0.7\n');
    expect(run.stdout).toContain('=> stop (need_help) at step 4 by rule stalled: the last 3 steps made no progress (identical test results and output)\n');
    expect(run.stdout).toContain('=> stop (limit) at step 20 by rule hard_cap: the step cap is reached (20 of 20)\n');
    expect(run.stdout).toContain('=> the recording ended after 3 steps while the policy still said retry (no_tests_ran)\n');
    expect(run.stdout).toMatch(/summary: 7 runs/);
    expect(run.stdout).toMatch(/stop need_help\s+evidence_contradicts_model\s+1/);
    expect(run.stdout).toMatch(/stop success\s+tests_and_criteria_passed\s+2/);
    expect(run.stdout).toMatch(/1 run ended before the policy stopped/);
  });

  it('prints JSON with --json', async () => {
    const run = await runCli(['replay', '--json', 'examples/traces/02-tests-fail-model-says-done.jsonl']);
    expect(run.code).toBe(0);
    const parsed = JSON.parse(run.stdout) as { policy: unknown; runs: { final: unknown; endedBy: string }[]; summary: unknown; errors: unknown[] };
    expect(parsed.policy).toEqual(SEED_STOP_POLICY);
    expect(parsed.summary).toEqual({ runs: 1, byOutcome: [{ outcome: 'stop need_help', reason: 'evidence_contradicts_model', count: 1 }], unfinished: 0 });
    expect(parsed.runs[0]).toMatchObject({ endedBy: 'decision', final: { kind: 'stop', exit: 'need_help', reason: 'evidence_contradicts_model', rule: 'evidence_contradicts_model' } });
    expect(parsed.errors).toEqual([]);
  });

  it('applies a policy file', async () => {
    const policy = write('policy.json', JSON.stringify({ maxSteps: 5 }));
    const run = await runCli(['replay', '--json', '--policy', policy, 'examples/traces/07-hard-cap.jsonl']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).runs[0].final).toMatchObject({ reason: 'hard_cap', values: { step: 5, maxSteps: 5 } });
    // A policy document is applied as it is: this one stops at once on passing tests, or gives up after two steps.
    const document = write(
      'document.json',
      JSON.stringify({
        version: 2,
        name: 'two steps',
        rules: [
          { id: 'green', when: { tests: 'passed' }, then: { kind: 'stop', exit: 'success', reason: 'green' } },
          { id: 'cap', when: { limit: { of: 'steps', max: 2 } }, then: { kind: 'stop', exit: 'gave_up', reason: 'two_steps' } },
        ],
      }),
    );
    const capped = await runCli(['replay', '--policy', document, 'examples/traces/07-hard-cap.jsonl', 'examples/traces/04-mid-band-then-done.jsonl']);
    expect(capped.code).toBe(0);
    expect(capped.stdout.split('\n')[0]).toBe('policy: two steps (2 rules: green, cap)');
    expect(capped.stdout).toContain('=> stop (gave_up) at step 2 by rule cap (two_steps)');
    expect(capped.stdout).toContain('=> stop (success) at step 1 by rule green');
  });

  it('exits 1 naming the file, line and field for a malformed line, and still replays the other files', async () => {
    const bad = write('bad.jsonl', `${JSON.stringify({ task: 't' })}\n{"step": 1, "output": "x", "tests": {"passed": true, "failed": [], "ran": "3"}, "probabilities": {}}\n`);
    const run = await runCli(['replay', bad, 'examples/traces/05-criteria-low.jsonl']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${bad}:2: tests.ran: must be a non-negative integer, got "3"`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toMatch(/criteria_low/);
  });

  it('puts counts of one in the singular', async () => {
    const one = write(
      'one-step.jsonl',
      `${JSON.stringify({ task: 't' })}\n${JSON.stringify({ step: 1, output: 'x', tests: { passed: true, failed: [], ran: 3 }, probabilities: { covered: 0.5 } })}\n`,
    );
    const policy = write('one-policy.json', JSON.stringify({ maxSteps: 1, stallRounds: 1 }));
    const run = await runCli(['replay', one]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('=> the recording ended after 1 step while the policy still said retry (criteria_mid_band)\n');
    expect(run.stdout).toContain('\nsummary: 1 run\n');
    expect(run.stdout).toContain('\n1 run ended before the policy stopped\n');
    const capped = await runCli(['replay', '--policy', policy, one]);
    expect(capped.stdout).toContain('=> stop (limit) at step 1 by rule hard_cap: the step cap is reached (1 of 1)\n');
    const onlyRule = write('one-rule.json', JSON.stringify({ version: 2, rules: [{ id: 'wait', when: { always: true }, then: { kind: 'continue' } }] }));
    expect((await runCli(['replay', '--policy', onlyRule, one])).stdout.split('\n')[0]).toBe('policy: unnamed (1 rule: wait)');
  });

  it('prints only the error, no empty summary, when no file could be read', async () => {
    const missing = join(scratch, 'missing.jsonl');
    const run = await runCli(['replay', missing]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`stopwise replay: ${missing}: no such file or folder\n`);
  });

  it('exits 1 for a line that is not JSON', async () => {
    const bad = write('garbage.jsonl', '{"step": 1,\n');
    const run = await runCli(['replay', bad]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/garbage\.jsonl:1: not valid JSON/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 1 for a missing file', async () => {
    const run = await runCli(['replay', 'no/such/run.jsonl']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no/such/run.jsonl: no such file or folder');
  });

  it('exits 1 for a bad policy file, naming the field', async () => {
    const policy = write('bad-policy.json', JSON.stringify({ doneThreshold: 1.5 }));
    const run = await runCli(['replay', '--policy', policy, 'examples/traces']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`stopwise replay: ${policy}: doneThreshold: must be at most 1, got 1.5\n`);
  });

  it('exits 2 for a usage error', async () => {
    expect((await runCli(['replay'])).code).toBe(2);
    const unknown = await runCli(['replay', '--fast', 'examples/traces']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^stopwise replay: unknown option --fast \(a file whose name starts with "-" goes after --, as in: -- --fast\)\n/);
    expect((await runCli(['frobnicate'])).code).toBe(2);
  });

  it('prints help', async () => {
    const run = await runCli(['replay', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/usage: stopwise replay/);
  });
});
