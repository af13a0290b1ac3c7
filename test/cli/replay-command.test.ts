import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'stopwise-replay-'));
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
    expect(run.stdout).toMatch(/run examples\/traces\/01-done-after-retries\.jsonl \[feature\]/);
    expect(run.stdout).toMatch(/step\s+tests\s+lowest\s+action\s+reason/);
    expect(run.stdout).toMatch(/=> stop_done \(tests_and_criteria_passed, rule 6\)/);
    expect(run.stdout).toMatch(/=> handoff_human \(stalled, rule 2\)/);
    expect(run.stdout).toMatch(/=> handoff_human \(hard_cap, rule 1\): step 20 reached the step cap of 20/);
    expect(run.stdout).toMatch(/summary: 7 runs/);
    expect(run.stdout).toMatch(/handoff_human\s+evidence_contradicts_model\s+1/);
    expect(run.stdout).toMatch(/1 run ended before the policy stopped/);
  });

  it('prints JSON with --json', async () => {
    const run = await runCli(['replay', '--json', 'examples/traces/02-tests-fail-model-says-done.jsonl']);
    expect(run.code).toBe(0);
    const parsed = JSON.parse(run.stdout) as { runs: { final: { reason: string; rule: number } }[]; summary: { runs: number } };
    expect(parsed.summary.runs).toBe(1);
    expect(parsed.runs[0]?.final).toMatchObject({ reason: 'evidence_contradicts_model', rule: 4 });
  });

  it('applies a policy file', async () => {
    const policy = write('policy.json', JSON.stringify({ maxSteps: 5 }));
    const run = await runCli(['replay', '--json', '--policy', policy, 'examples/traces/07-hard-cap.jsonl']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).runs[0].final).toMatchObject({ reason: 'hard_cap', values: { step: 5, maxSteps: 5 } });
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
    expect(run.stdout).toContain('=> the recording ended after 1 step while the policy still said retry');
    const capped = await runCli(['replay', '--policy', policy, one]);
    expect(capped.stdout).toMatch(/^policy: .*, cap 1 step, stall after 1 identical step\n/);
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
    expect(run.stderr).toMatch(/policy\.doneThreshold must be a number in \[0, 1\], got 1\.5/);
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
