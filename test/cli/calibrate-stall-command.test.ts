import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { calibrateStallDetector } from '../../src/calibrate/calibrate-stall-detector.js';
import { fitStallScore } from '../../src/calibrate/fit-stall-score.js';
import { withStallRule } from '../../src/calibrate/stall-stop-policy.js';
import { hookStopPolicy } from '../../src/core/policy/hook-stop-policy.js';
import { parseStopPolicy } from '../../src/core/policy/parse-stop-policy.js';
import { stallCalibrationSentences } from '../../src/calibrate/describe-stall-calibration.js';
import { renderStallCalibrationReport } from '../../src/calibrate/stall-calibration-report-html.js';
import { detectStall } from '../../src/stall/index.js';
import { labelledStallRuns, stallRunsJsonl } from '../fixtures/stall-runs/labelled-stall-runs.js';
import { runCli } from './run-cli.js';

const folder = mkdtempSync(join(tmpdir(), 'stopwise-calibrate-stall-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

const runs = labelledStallRuns();
const runsFile = write('runs.jsonl', stallRunsJsonl(runs));
const expected = calibrateStallDetector(runs, { maxFalseAlarm: 0.02, confidence: 0.95 });

// Each calibration the command runs takes seconds: the tests share two runs of the same calibration, one printing text
// and writing the report and the policy, one printing JSON and writing the report.
const page = join(folder, 'out', 'stall-report.html');
const jsonPage = join(folder, 'out', 'stall-report-json.html');
const policyOut = join(folder, 'policies', 'rules.json');
let textRun: ReturnType<typeof runCli> | undefined;
let jsonRun: ReturnType<typeof runCli> | undefined;
const text = () => (textRun ??= runCli(['calibrate-stall', runsFile, '--max-false-alarm', '0.02', '--html', page, '--policy-out', policyOut]));
const json = () => (jsonRun ??= runCli(['calibrate-stall', runsFile, '--max-false-alarm', '0.02', '--json', '--html', jsonPage]));
const report = renderStallCalibrationReport({ calibration: expected, target: { maxFalseAlarm: 0.02, confidence: 0.95 }, source: runsFile });

describe('stopwise calibrate-stall', () => {
  it('prints { options, figures } of calibrateStallDetector with --json', async () => {
    const { code, stdout } = await json();
    expect(code).toBe(0);
    const printed = JSON.parse(stdout) as typeof expected;
    expect(printed).toEqual({ options: expected.options, figures: expected.figures });
    // the defaults stop the successful runs that poll a build with a plain command (the same result 4 times); the retried
    // install fails on a network reset, an infrastructure error they let repeat; the chosen options stop neither
    const defaultsAlarms = runs.filter((run) => run.label === 'success' && (detectStall(run.steps)?.step ?? Infinity) < run.steps.length - 1).length;
    expect(defaultsAlarms).toBe(8); // 20 retry an install, 8 poll a build, 4 do both
    expect(printed.figures.falseAlarmUpper).toBeLessThanOrEqual(0.02);
    expect(printed.figures.successRuns).toBe(200);
    expect(printed.figures.wastedRuns).toBe(60);
    expect(printed.figures.wastedCaught).toBe(45);
    expect(printed.options.repeatedFailingCall === false || printed.options.repeatedFailingCall.repeats > 3).toBe(true);
  });

  it('starts with three plain sentences, then the options and figures as tables', async () => {
    const { code, stdout, stderr } = await text();
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    const sentences = stallCalibrationSentences(expected, { maxFalseAlarm: 0.02, confidence: 0.95 });
    expect(lines.slice(0, 4)).toEqual([...sentences, '']);
    expect(lines[0]).toMatch(/^Options chosen: stop a run on .+; the \d other patterns are off\.$/);
    expect(lines[1]).toBe(
      'On these runs they stop 0 of 200 successful runs before their end: at most 1.49% of successful runs like these, with 95% confidence, within the 2% target; the options were chosen on these same runs, so check them on runs they were not chosen on.',
    );
    expect(lines[2]).toBe('They stop 45 of 60 wasted runs (75%) and save 570 of their 1155 steps (49.35%).');
    expect(stdout).toContain(`${runsFile}: 260 runs (60 wasted, 200 successful)`);
    expect(stdout).toContain('verdict: CHOSEN');
    expect(stdout).toMatch(/\noption +setting +stops a run on\nrepeatedResult +(off|repeats \d)/);
    expect(stdout).toMatch(/\nmonologue +off +never fires\n/);
    expect(stdout).toMatch(/\nsuccessful runs stopped early +0 of 200 +0%\n/);
    expect(stdout).toMatch(/\nupper bound \(95%\) +1\.49%\n/);
    expect(stdout).toMatch(/\npattern that fired first +option +wasted runs +steps saved +successful runs stopped early\n/);
    for (const pattern of expected.figures.patterns) {
      expect(stdout).toMatch(new RegExp(`\\n${pattern.pattern} +\\w+ +${pattern.wastedRuns} +${pattern.wastedStepsSaved} +${pattern.successRunsStopped}\\n`));
    }
  });

  it('writes the HTML report with --html and says so: on stdout after the text, on stderr with --json', async () => {
    const { stdout } = await text();
    expect(stdout.split('\n')).toContain(`report written to ${page}`);
    expect(readFileSync(page, 'utf8')).toBe(report);
    const { stderr } = await json();
    expect(stderr).toBe(`stopwise calibrate-stall: report written to ${jsonPage}\n`);
    expect(readFileSync(jsonPage, 'utf8')).toBe(report);
  });

  it('writes the chosen options as a step-history rule of the hook preset with --policy-out', async () => {
    const { stdout } = await text();
    expect(stdout.trimEnd().split('\n').slice(-2)).toEqual([`policy written to ${policyOut} (a stop policy document for decide, runAgentLoop and the hook configuration)`, `report written to ${page}`]);
    expect(parseStopPolicy(JSON.parse(readFileSync(policyOut, 'utf8')))).toEqual(withStallRule(hookStopPolicy(), { options: expected.options }));
  });

  it('fits the learned score with --model score and writes it as a rule after the limit rules of the policy given', async () => {
    const base = write(
      'base-policy.json',
      JSON.stringify({
        version: 2,
        rules: [
          { id: 'cap', when: { limit: { of: 'steps', max: 60 } }, then: { kind: 'stop', exit: 'limit', reason: 'step_cap' } },
          { id: 'more', when: { always: true }, then: { kind: 'continue' } },
        ],
      }),
    );
    const out = join(folder, 'policies', 'score.json');
    const { code, stdout, stderr } = await runCli(['calibrate-stall', runsFile, '--max-false-alarm', '0.05', '--model', 'score', '--policy', base, '--policy-out', out, '--json']);
    expect(code).toBe(0);
    expect(stderr).toBe(`stopwise calibrate-stall: policy written to ${out} (a stop policy document for decide, runAgentLoop and the hook configuration)\n`);
    const fitted = fitStallScore(runs, { maxFalseAlarm: 0.05, confidence: 0.95, calibrationShare: 0.5, seed: 1 });
    expect(fitted.certified).toBe(true);
    expect(JSON.parse(stdout)).toEqual({ model: fitted.model, certified: true, neededSuccessRuns: 59, figures: { fit: fitted.fit, calibration: fitted.calibration } });
    const written = parseStopPolicy(JSON.parse(readFileSync(out, 'utf8')));
    expect(written.rules.map((rule) => rule.id)).toEqual(['cap', 'stalled_score', 'more']);
    expect(written.rules[1]?.when).toEqual({ stall: { detector: 'score', model: fitted.model } });
  });

  it('says with --model score when too few successful runs were kept apart, and writes a score rule that never holds', async () => {
    const out = join(folder, 'policies', 'never.json');
    const { code, stdout, stderr } = await runCli(['calibrate-stall', runsFile, '--max-false-alarm', '0.02', '--model', 'score', '--policy-out', out]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const fitted = fitStallScore(runs, { maxFalseAlarm: 0.02 });
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(
      `No threshold is certified: ${fitted.calibration.successRuns} successful runs were kept apart, and 149 with no false alarm are needed for 2% at 95% confidence; the score never stops a run.`,
    );
    expect(stdout).toContain('verdict: NOT CERTIFIED (never stops)');
    expect(lines.at(-1)).toBe(`${out} written: nothing was certified, so its stall rule never holds`);
    const written = parseStopPolicy(JSON.parse(readFileSync(out, 'utf8')));
    expect(written.rules.find((rule) => rule.id === 'stalled_score')?.when).toEqual({ stall: { detector: 'score', model: { ...fitted.model, threshold: null } } });
  });

  it('says how many successful runs are needed when too few are given, and chooses nothing', async () => {
    const few = write('few.jsonl', stallRunsJsonl(labelledStallRuns(20, 10)));
    const { code, stdout } = await runCli(['calibrate-stall', few, '--max-false-alarm', '0.02', '--confidence', '0.9']);
    expect(code).toBe(0);
    expect(stdout.split('\n').slice(0, 3)).toEqual([
      'No options could be chosen: every pattern is off, so do not stop runs on these patterns yet.',
      'Nothing is guaranteed: with 20 successful runs, even a detector that never fires has an upper bound of 10.87% (90% confidence) on the share of successful runs it stops, above the 2% target; at least 114 successful runs are needed.',
      'Of 10 wasted runs, none is stopped.',
    ]);
    expect(stdout).toContain('verdict: NOT CERTIFIED (every pattern off)');
  });

  it.each([
    ['line 3 is not JSON', (good: string) => `${good}\n${good}\n{"steps": [\n`, /^stopwise calibrate-stall: \S+:3: not valid JSON \(/],
    ['a label is wrong', (good: string) => `${good}\n{"steps": [], "label": "failed"}\n`, /:2: label: must be "wasted" or "success", got "failed"\n$/],
    ['a label is missing', () => '{"steps": []}\n', /:1: label: is missing; expected "wasted" or "success"\n$/],
    ['steps are not an array', () => '{"steps": {"tool": "bash"}, "label": "wasted"}\n', /:1: steps: must be an array of steps, got an object\n$/],
    [
      'a step has a misspelt field',
      () => '\n{"steps": [{"tool": "bash"}, {"tool": "bash", "exit_code": 1}], "label": "wasted"}\n',
      /:2: unknown step field "exit_code" in steps\[1\]; expected one of tool, input, output, error, exitCode, text, tests, role\n$/,
    ],
    ['an exit code is a string', () => '{"steps": [{"tool": "bash", "exitCode": "1"}], "label": "wasted"}\n', /:1: steps\[0\]\.exitCode must be an integer or null, got "1"\n$/],
    ['tests are malformed', () => '{"steps": [{"tool": "t", "tests": {"passed": "no"}}], "label": "success"}\n', /:1: steps\[0\]\.tests\.passed must be a boolean, got "no"\n$/],
    ['a line is not an object', () => '[1, 2]\n', /:1: must be a JSON object, got an array\n$/],
    ['the file is empty', () => '\n\n', /empty\.jsonl: the file holds no runs\n$/],
  ])('exits 1 with the line number when %s', async (name, text, message) => {
    const good = JSON.stringify({ steps: [{ tool: 'bash', input: 'ls', output: 'a' }], label: 'success' });
    const file = write(name === 'the file is empty' ? 'empty.jsonl' : `bad-${name.replaceAll(' ', '-')}.jsonl`, text(good));
    const { code, stdout, stderr } = await runCli(['calibrate-stall', file, '--max-false-alarm', '0.02']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/unexpected error|at .*\.js:\d+/);
  });

  it('exits 1 when the file or the report cannot be written or read', async () => {
    const missing = await runCli(['calibrate-stall', join(folder, 'nope.jsonl'), '--max-false-alarm', '0.02']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^stopwise calibrate-stall: \S+nope\.jsonl: /);
    const blocked = write('a-file', 'x');
    const unwritable = await runCli(['calibrate-stall', runsFile, '--max-false-alarm', '0.02', '--html', join(blocked, 'report.html')]);
    expect(unwritable.code).toBe(1);
    expect(unwritable.stdout).toBe('');
    expect(unwritable.stderr).toMatch(/report\.html: could not write/);
  });

  it.each([
    [['calibrate-stall', 'runs.jsonl'], /--max-false-alarm is required/],
    [['calibrate-stall', 'runs.jsonl', '--max-false-alarm', '2'], /--max-false-alarm must be a number in \(0, 1\), got "2"/],
    [['calibrate-stall', 'runs.jsonl', '--max-false-alarm', ''], /--max-false-alarm must be a number in \(0, 1\), got ""/],
    [['calibrate-stall', 'runs.jsonl', '--max-false-alarm', '0.02', '--confidence', '1'], /--confidence must be a number in \(0, 1\), got "1"/],
    [['calibrate-stall', '--max-false-alarm', '0.02'], /expected one file of labelled runs, got 0/],
    [['calibrate-stall', 'a.jsonl', 'b.jsonl', '--max-false-alarm', '0.02'], /expected one file of labelled runs, got 2/],
    [['calibrate-stall', 'runs.jsonl', '--max-false-alarm', '0.02', '--bogus'], /unknown option --bogus/],
    [['calibrate-stall', 'runs.jsonl', '--max-false-alarm', '0.02', '--model', 'tree'], /--model must be rules or score, got tree/],
    [['calibrate-stall', 'runs.jsonl', '--max-false-alarm', '0.02', '--model', 'score', '--html', 'r.html'], /--html reports the rules; it does not go with --model score/],
    [['calibrate-stall', 'runs.jsonl', '--max-false-alarm', '0.02', '--policy', 'p.json'], /--policy names the policy the rule is added to; it goes with --policy-out/],
  ])('exits 2 on a usage error: %j', async (args, message) => {
    const { code, stderr } = await runCli(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('has help of its own and is listed in the CLI help', async () => {
    const help = await runCli(['calibrate-stall', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: stopwise calibrate-stall RUNS\.jsonl --max-false-alarm F/);
    expect(help.stdout).toContain('exit codes: 0 calibrated');
    const main = await runCli(['--help']);
    expect(main.stdout).toMatch(/\n {2}calibrate-stall +choose stall detector thresholds from labelled agent runs/);
  });
});
