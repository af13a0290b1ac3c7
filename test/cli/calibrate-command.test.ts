import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decide, initialStopState } from '../../src/core/policy/decide.js';
import { parseStopPolicy } from '../../src/core/policy/parse-stop-policy.js';
import { readsCriteria } from '../../src/core/policy/policy-reads-criteria.js';
import type { RuleCondition, StopPolicyDocument } from '../../src/core/policy/stop-policy-document.js';

const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'dist', 'bin', 'stopwise.js');
const examples = 'examples/cases/labelled-cases.jsonl';

function run(args: readonly string[]) {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const folders: string[] = [];
function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'stopwise-calibrate-'));
  folders.push(folder);
  return folder;
}
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

type Thresholds = { doneThreshold: number; midBandLow: number } | null;
type Printed = {
  result: {
    thresholds: Thresholds;
    policy: StopPolicyDocument;
    settings: { seed: number; alpha: number };
    byTaskType: Record<string, { thresholds: Thresholds; policy: StopPolicyDocument }>;
  };
};

describe('stopwise calibrate', () => {
  it('calibrates the bundled example cases and prints the verdict, figures and metrics', () => {
    const { code, stdout, stderr } = run(['calibrate', examples]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/\nexamples\/cases\/labelled-cases\.jsonl: 660 cases/);
    expect(stdout).toMatch(/verdict: NOT CONFIRMED {2}doneThreshold 0\.\d+ {2}midBandLow 0\.\d+ \(certified on the calibration cases; the held-out upper bound [\d.]+% is above the 5% target\)/);
    expect(stdout).toContain('guarantee: With probability at least 90%');
    expect(stdout).toMatch(/false dones +\d+ \(/);
    expect(stdout).toMatch(/held-out upper \(90%\)/);
    expect(stdout).toMatch(/Brier 0\.\d{4}, ECE \(15 bins\) 0\.\d{4}/);
    expect(stdout).toMatch(/per task type:\ntask type +cases/);
    expect(stdout).toMatch(/feature +220 +no/);
  });

  it('starts with three plain sentences: the threshold, the guarantee in words, and what the held-out cases say', () => {
    const { stdout } = run(['calibrate', examples]);
    const [threshold, guarantee, check, blank] = stdout.split('\n');
    expect(threshold).toMatch(
      /^Threshold chosen: stop as done when the tests pass and every criterion scores at least 0\.\d+; between 0\.\d+ and 0\.\d+ ask the agent to retry, below 0\.\d+ hand the run to a person\.$/,
    );
    expect(guarantee).toBe(
      'It guarantees that at most 5% of all cases are stopped as done while a person would judge them not done, with 90% confidence, if new cases are like these.',
    );
    expect(check).toMatch(/^The 198 held-out cases do not confirm it: 6 false stops of 198, and their upper bound of 5\.26% \(90% confidence\) is above the 5% target\.$/);
    expect(blank).toBe('');
    // the jargon comes after, each term with its meaning
    expect(stdout.indexOf('Brier')).toBeGreaterThan(stdout.indexOf(check as string));
    expect(stdout).toMatch(/\n {2}Brier: the mean squared gap between score and label/);
    expect(stdout).toMatch(/\n {2}ECE: the mean gap between the score and the share really done/);
    expect(stdout).toMatch(/\n {2}p: how likely so few false dones would be if the true rate were above 5%; a threshold passes while p <= 0\.1/);
  });

  it('says when the held-out cases agree, when none were held out, and when nothing could be chosen', () => {
    const agree = run(['calibrate', 'test/fixtures/cases/single-class.jsonl', '--alpha', '0.1']).stdout.split('\n');
    expect(agree[2]).toBe('The 36 held-out cases agree: 0 false stops of 36, at most 6.2% with 90% confidence, within the 10% target.');
    const none = run(['calibrate', 'test/fixtures/cases/single-class.jsonl', '--holdout', '0']).stdout.split('\n');
    expect(none[2]).toBe('No cases were held out, so nothing checks the threshold on cases it was not chosen on.');
    const uncertified = run(['calibrate', 'test/fixtures/cases/too-few.jsonl']).stdout.split('\n');
    expect(uncertified.slice(0, 3)).toEqual([
      "No threshold could be chosen: these cases do not show that any is safe, so never stop on the decision model's word alone.",
      'Nothing is guaranteed: no threshold keeps false stops at or below 5% of all cases with 90% confidence on these 4 cases.',
      'The 2 held-out cases have no threshold to check.',
    ]);
  });

  it('gives one verdict: a threshold the held-out cases do not confirm is never called certified, overall or per task type', () => {
    const { stdout } = run(['calibrate', examples]);
    expect(stdout.split('\n')[2]).toMatch(/^The 198 held-out cases do not confirm it: /);
    expect(stdout).not.toMatch(/verdict: CERTIFIED/);
    expect(stdout).toMatch(/\nrefactor +220 +not confirmed +0\.7 +0\.48 +5\/66 \(upper 13\.6%\)\n/);
    expect(stdout).toContain('refactor: not confirmed: certified on its calibration cases, but its held-out upper bound 13.6% is above the 5% target');
    for (const row of stdout.split('per task type:')[1]?.split('\n') ?? []) {
      const upper = /upper ([\d.]+)%/.exec(row);
      if (upper !== null && Number(upper[1]) > 5) expect(row, row).not.toMatch(/ yes +\d/);
    }
  });

  it('writes a stop policy document with the calibrated thresholds that replay and decide read, and the same result as JSON', () => {
    const folder = tempFolder();
    const policyPath = join(folder, 'out', 'policy.json');
    const { code, stdout } = run(['calibrate', examples, '--seed', '3', '--alpha', '0.1', '--policy-out', policyPath, '--json']);
    expect(code).toBe(0);
    const printed = JSON.parse(stdout) as Printed;
    expect(printed.result.settings).toMatchObject({ seed: 3, alpha: 0.1 });
    const thresholds = printed.result.thresholds;
    if (thresholds === null) throw new Error('expected certified thresholds');
    const document = parseStopPolicy(JSON.parse(readFileSync(policyPath, 'utf8')));
    // The overall rules are the calibrated seed preset's; those that read criteria read no case of a task type with rules of its own.
    const taskTypes = Object.keys(printed.result.byTaskType);
    expect(taskTypes.length).toBeGreaterThan(0);
    const others: RuleCondition = { not: { any: taskTypes.map((taskType) => ({ taskType })) } };
    for (const rule of printed.result.policy.rules) {
      const written = document.rules.find((candidate) => candidate.id === rule.id);
      expect(written?.when, rule.id).toEqual(readsCriteria(rule.when) ? { all: [others, rule.when] } : rule.when);
      expect(written?.then, rule.id).toEqual(rule.then);
    }
    expect(printed.result.policy.rules.find((rule) => rule.id === 'tests_and_criteria_passed')?.when).toEqual({ all: [{ tests: 'passed' }, { criteria: { gte: thresholds.doneThreshold } }] });
    for (const [taskType, group] of Object.entries(printed.result.byTaskType)) {
      const own = document.rules.filter((rule) => rule.id.startsWith(`${taskType}.`));
      expect(own.map((rule) => rule.id)).toEqual(group.policy.rules.filter((rule) => readsCriteria(rule.when)).map((rule) => `${taskType}.${rule.id}`));
      const success = group.policy.rules.find((rule) => rule.id === 'tests_and_criteria_passed');
      expect(own.find((rule) => rule.id === `${taskType}.tests_and_criteria_passed`)?.when).toEqual({ all: [{ taskType }, success?.when] });
    }
    const green = { step: 1, tests: { passed: true, failed: [], ran: 3 }, probabilities: { acceptanceCovered: thresholds.doneThreshold }, output: '' };
    expect(decide(document, initialStopState(document), green).decision).toMatchObject({ kind: 'stop', exit: 'success', rule: 'tests_and_criteria_passed' });
    const replay = run(['replay', '--policy', policyPath, 'examples/traces', '--json']);
    expect(replay.code).toBe(0);
    expect((JSON.parse(replay.stdout) as { policy: unknown }).policy).toEqual(document);
  });

  it('exits 1 naming the file, line and field of a bad line, with no stack trace', () => {
    const { code, stdout, stderr } = run(['calibrate', 'test/fixtures/cases/bad-probability.jsonl']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'stopwise calibrate: test/fixtures/cases/bad-probability.jsonl:3: probabilities.acceptanceCovered: criterion "acceptanceCovered" has probability 1.3; expected a finite number in [0, 1]\n',
    );
    expect(stderr).not.toMatch(/\n\s+at /);
    const missing = run(['calibrate', 'no-such-file.jsonl']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('stopwise calibrate: no-such-file.jsonl: no such file or folder\n');
  });

  it('exits 0 with the uncertified verdict on too few cases, and writes a document that never stops a run as done', () => {
    const folder = tempFolder();
    const policyPath = join(folder, 'p.json');
    writeFileSync(policyPath, JSON.stringify({ policy: { doneThreshold: 0.5 } }));
    const { code, stdout } = run(['calibrate', 'test/fixtures/cases/too-few.jsonl', '--policy-out', policyPath]);
    expect(code).toBe(0);
    expect(stdout).toContain('verdict: NOT CERTIFIED (too few cases: 4 calibration cases; about 65 labelled cases in all would be needed)');
    expect(stdout).toContain("Never stop on the decision model's word alone");
    expect(stdout).toMatch(/About \d+ labelled cases in all/);
    expect(stdout).toContain('nothing was certified, so its rules never stop a run as done');
    const document = parseStopPolicy(JSON.parse(readFileSync(policyPath, 'utf8')));
    expect(document.rules.some((rule) => rule.then.kind === 'stop' && rule.then.exit === 'success')).toBe(false);
    const replay = run(['replay', '--policy', policyPath, 'examples/traces', '--json']);
    expect(replay.code).toBe(0);
    const runs = (JSON.parse(replay.stdout) as { runs: { final: { kind: string; exit?: string } }[] }).runs;
    expect(runs.length).toBeGreaterThan(0);
    for (const ran of runs) expect(ran.final.exit).not.toBe('success');
  });

  it('gives the same verdict on its verdict line and in the HTML report', () => {
    const folder = tempFolder();
    const verdictOf = (html: string): string => /<p class="verdict [a-z]+">(.*?)<\/p>/.exec(html)?.[1] ?? '';
    const few = run(['calibrate', 'test/fixtures/cases/too-few.jsonl', '--html', join(folder, 'few.html')]);
    expect(few.code).toBe(0);
    const line = /^verdict: NOT CERTIFIED \((.*)\)$/m.exec(few.stdout)?.[1];
    expect(line).toBe('too few cases: 4 calibration cases; about 65 labelled cases in all would be needed');
    expect(verdictOf(readFileSync(join(folder, 'few.html'), 'utf8'))).toBe(`Not certified (${line}): never stop on the decision model's word alone`);
    // The recommendation says the same count.
    expect(few.stdout).toContain('About 65 labelled cases in all (45 calibration cases) would be needed');

    const unconfirmed = run(['calibrate', examples, '--html', join(folder, 'examples.html')]);
    const seen = /^verdict: NOT CONFIRMED {2}doneThreshold (0\.\d+) {2}midBandLow (0\.\d+) \(certified on the calibration cases; (the held-out upper bound [\d.]+% is above the 5% target)\)/m.exec(unconfirmed.stdout);
    expect(seen).not.toBeNull();
    expect(verdictOf(readFileSync(join(folder, 'examples.html'), 'utf8'))).toBe(
      `Not confirmed: doneThreshold <b>${seen?.[1]}</b>, midBandLow <b>${seen?.[2]}</b>, certified on the calibration cases; ${seen?.[3]}`,
    );

    const certified = run(['calibrate', examples, '--holdout', '0', '--html', join(folder, 'all.html')]);
    const chosen = /^verdict: CERTIFIED {2}doneThreshold (0\.\d+) {2}midBandLow (0\.\d+)/m.exec(certified.stdout);
    expect(chosen).not.toBeNull();
    expect(verdictOf(readFileSync(join(folder, 'all.html'), 'utf8'))).toBe(`Certified: doneThreshold <b>${chosen?.[1]}</b>, midBandLow <b>${chosen?.[2]}</b>`);
  });

  it('warns when every case has the same label', () => {
    const { code, stdout } = run(['calibrate', 'test/fixtures/cases/single-class.jsonl', '--holdout', '0']);
    expect(code).toBe(0);
    expect(stdout).toContain('warning: every case is labelled done');
    expect(stdout).toContain('verdict: CERTIFIED');
  });

  it('exits 1 for cases that carry no probabilities', () => {
    const folder = tempFolder();
    const path = join(folder, 'unscored.jsonl');
    writeFileSync(path, '{"task":"t","output":"o","label":"done"}\n');
    const { code, stderr } = run(['calibrate', path]);
    expect(code).toBe(1);
    expect(stderr).toContain(`${path}:1: probabilities: 1 case has no probabilities (line 1);`);
    writeFileSync(path, '{"task":"t","output":"o","label":"done"}\n{"task":"t","output":"o","label":"not_done"}\n');
    expect(run(['calibrate', path]).stderr).toContain(`${path}:1: probabilities: 2 cases have no probabilities (lines 1, 2);`);
  });

  it('exits 2 on usage errors', () => {
    expect(run(['calibrate']).code).toBe(2);
    expect(run(['calibrate', examples, '--alpha', '2']).stderr).toContain('--alpha must be a number in (0, 1), got "2"');
    expect(run(['calibrate', examples, '--seed', 'x']).code).toBe(2);
    expect(run(['calibrate', examples, '--risk', 'both']).code).toBe(2);
    expect(run(['calibrate', examples, '--bogus']).code).toBe(2);
    const help = run(['calibrate', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: stopwise calibrate CASES.jsonl');
    expect(run(['--help']).stdout).toContain('calibrate');
  });

  it('exits 2 on live-scoring flags that do not fit together', () => {
    const client = run(['calibrate', examples, '--client', 'system-one']);
    expect(client.code).toBe(2);
    expect(client.stderr).toContain('--client only applies with --live');
    expect(run(['calibrate', examples, '--cache', 'x.jsonl']).stderr).toContain('--cache only applies with --live');
    const live = run(['calibrate', examples, '--live']);
    expect(live.code).toBe(2);
    expect(live.stderr).toContain('--live needs --client system-one|openai-compatible|ai-sdk\n');
    expect(run(['calibrate', examples, '--live', '--client', 'gpt']).stderr).toContain(
      '--client must be system-one or openai-compatible or ai-sdk, got "gpt"',
    );
    expect(run(['calibrate', examples, '--live', '--client', 'system-one', '--concurrency', '0']).stderr).toContain(
      '--concurrency must be an integer from 1 to 256, got "0"',
    );
    expect(run(['calibrate', examples, '--live', '--client', 'system-one', '--timeout-ms', '-5']).code).toBe(2);
    expect(run(['calibrate', examples, '--live', '--client', 'system-one', '--model', '']).stderr).toContain('--model must not be empty');
  });

  it('with --live and every case already scored, asks no model and needs no configuration', () => {
    const plain = run(['calibrate', examples, '--json']);
    const result = spawnSync(process.execPath, [cli, 'calibrate', examples, '--live', '--client', 'system-one', '--json'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('stopwise calibrate: every case carries probabilities; nothing to score\n');
    expect(result.stdout).toBe(plain.stdout);
  });
});
