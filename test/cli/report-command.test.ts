import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summarizeOutcomes } from '../../src/core/summarize-outcomes.js';
import { parseOutcomeRecords } from '../../src/report/parse-outcome-records.js';
import { outcomesFileText, simulateOutcomeRecords } from '../../bench/simulated-outcomes.js';
import { runCli } from './run-cli.js';

let folder: string;
let file: string;
let text: string;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'stopwise-report-cli-'));
  file = join(folder, 'outcomes.jsonl');
  text = outcomesFileText(simulateOutcomeRecords({ seed: 7, runs: 3000, days: 30, rise: { taskType: 'bugfix', fromDay: 20, toDay: 22, limitShare: 0.35 } }));
  writeFileSync(file, text);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('stopwise report', () => {
  it('prints plain sentences first, then the alert, the tables and the review queue', async () => {
    const { code, stdout, stderr } = await runCli(['report', 'outcomes.jsonl', '--bucket', 'day'], { cwd: folder });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('outcomes.jsonl: 3000 runs of 3 task types, ended from 2026-03-02 00:00 to 2026-03-31 23:58 (UTC).');
    expect(lines[1]).toMatch(/^\d alerts?: the share of limit stops rose above its usual band:$/);
    expect(lines[2]).toMatch(
      /^ {2}bugfix, day of 2026-03-22 00:00: \d+ of \d+ runs stopped at a limit \([\d.]+%: .+\), usual at most [\d.]+%; the previous 7 days: [\d.]+% of \d+ runs \(p = .+\)$/,
    );
    expect(stdout).toMatch(/\n\d+ runs to review: \d+ give-ups and \d+ hand-offs\.\n/);
    expect(stdout).toMatch(/\nhow runs ended:\ntask type +runs +success +limit +gave_up +need_help +failed\nbugfix +\d+ +\d+ \(/);
    expect(stdout).toMatch(/\ntime people took to answer:\ntask type +questions +answered +timed out +nobody to ask +median +p90 +longest +total waiting\n/);
    expect(stdout).toMatch(/\nreview queue \(newest 10 of \d+; --json or --html lists more\):\nended \(UTC\) +task type +exit/);
    expect(stdout).toMatch(
      /\nsuggested limits \(the 95% quantile of the successful runs, times 1\.25; each from the runs in brackets, none from fewer than 20\):\ntask type +successes +maxSteps +maxWallClockMs +maxCost\nbugfix +\d+ +\d+ \(\d+ runs\) +\d+ \(\d+ runs\)/,
    );
  });

  it('says too few runs to check instead of claiming no alert, and suggests no limit from too few successes', async () => {
    const few = join(folder, 'few.jsonl');
    writeFileSync(few, outcomesFileText(simulateOutcomeRecords({ seed: 3, runs: 3, days: 1 })));
    const { code, stdout } = await runCli(['report', few], { cwd: folder });
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[1]).toMatch(/^No limit-share check: no hour had the 20 runs in the 7 hours before it that a baseline needs, so none was tested\.$/);
    expect(stdout).not.toMatch(/No alert/);
    const limits = stdout.slice(stdout.indexOf('suggested limits'));
    expect(limits).not.toMatch(/\d \(\d+ runs?\)/);
    expect(limits).toMatch(/- \(\d runs?: too few\)/);
    const json = JSON.parse((await runCli(['report', few, '--json'], { cwd: folder })).stdout) as { suggestedLimits: Record<string, { limits: object; minRuns: number }> };
    for (const suggestion of Object.values(json.suggestedLimits)) expect(suggestion).toMatchObject({ limits: {}, minRuns: 20 });
  });

  it('prints byTaskType (summarizeOutcomes), alerts and the whole review queue as JSON, and writes the page', async () => {
    const { code, stdout, stderr } = await runCli(['report', file, '--json', '--html', 'out/page.html', '--bucket', 'day'], { cwd: folder });
    expect(code).toBe(0);
    expect(stderr).toBe('stopwise report: report written to out/page.html\n');
    const printed = JSON.parse(stdout) as Record<string, unknown> & {
      byTaskType: unknown;
      alerts: { taskType: string; start: string }[];
      reviewQueue: { exit: string; note: string }[];
      limitShare: { settings: unknown };
    };
    expect(Object.keys(printed)).toEqual(
      expect.arrayContaining(['byTaskType', 'alerts', 'reviewQueue', 'humanWaits', 'suggestedLimits', 'limitShare', 'runs', 'from', 'to', 'skipped', 'source']),
    );
    const read = parseOutcomeRecords(text);
    if (!read.ok) throw new Error('does not parse');
    expect(printed.byTaskType).toEqual(JSON.parse(JSON.stringify(summarizeOutcomes(read.runs))));
    expect(printed.alerts[0]).toMatchObject({ taskType: 'bugfix', start: '2026-03-22T00:00:00.000Z' });
    expect(printed.reviewQueue).toHaveLength(read.runs.filter((run) => run.outcome.exit === 'gave_up' || run.outcome.exit === 'need_help').length);
    expect(printed.limitShare.settings).toEqual({ bucket: 'day', window: 7, alpha: 0.01, minBaselineRuns: 20 });
    const page = readFileSync(join(folder, 'out', 'page.html'), 'utf8');
    expect(page.match(/class="alert-marker"/g)).toHaveLength(printed.alerts.length);
  });

  it('stops at a bad line with its number and field, or skips and counts bad lines with --skip-invalid', async () => {
    const bad = join(folder, 'bad.jsonl');
    const rows = text.split('\n');
    rows.splice(4, 0, '{"outcome": {"exit": "success", "steps": 2, "usage": {"wallClockMs": 1, "cost": 0}}, "at": "yesterday"}');
    rows.splice(9, 0, '{"outcome": {"exit": "limi');
    writeFileSync(bad, rows.join('\n'));
    const strict = await runCli(['report', 'bad.jsonl'], { cwd: folder });
    expect(strict.code).toBe(1);
    expect(strict.stdout).toBe('');
    expect(strict.stderr).toBe(
      'stopwise report: bad.jsonl:5: at: must be an ISO 8601 time with a zone (2026-03-01T12:00:00Z), got "yesterday" (--skip-invalid skips unreadable lines)\n',
    );
    const lenient = await runCli(['report', 'bad.jsonl', '--skip-invalid', '--json'], { cwd: folder });
    expect(lenient.code).toBe(0);
    expect(lenient.stderr).toMatch(/^stopwise report: 2 unreadable lines skipped \(line 5, 10\); the first: bad\.jsonl:5: at: must be/);
    expect((JSON.parse(lenient.stdout) as { runs: number; skipped: { count: number } }).skipped.count).toBe(2);
    expect((JSON.parse(lenient.stdout) as { runs: number }).runs).toBe(3000);
  });

  it('exits 1 for a file it cannot read or a page it cannot write, and 2 for a usage error', async () => {
    const missing = await runCli(['report', 'missing.jsonl'], { cwd: folder });
    expect(missing).toMatchObject({ code: 1, stderr: 'stopwise report: missing.jsonl: no such file or folder\n' });
    writeFileSync(join(folder, 'empty.jsonl'), '\n');
    expect(await runCli(['report', 'empty.jsonl'], { cwd: folder })).toMatchObject({ code: 1, stderr: 'stopwise report: empty.jsonl: the file holds no records\n' });
    writeFileSync(join(folder, 'a-file'), '');
    const unwritable = await runCli(['report', 'outcomes.jsonl', '--html', 'a-file/page.html'], { cwd: folder });
    expect(unwritable.code).toBe(1);
    expect(unwritable.stderr).toMatch(/^stopwise report: a-file\/page\.html: could not write/);
    const wide = join(folder, 'wide.jsonl');
    const [first] = text.split('\n');
    writeFileSync(wide, `${first}\n${(first as string).replace(/"at":"[^"]+"/, '"at":"2029-01-01T00:00:00Z"')}\n`);
    expect(await runCli(['report', 'wide.jsonl', '--bucket', 'hour'], { cwd: folder })).toMatchObject({ code: 1, stderr: expect.stringMatching(/more than 20000 buckets; choose a wider bucket/) });
    for (const [args, message] of [
      [['report'], 'expected one outcomes file, got 0'],
      [['report', 'a', 'b'], 'expected one outcomes file, got 2'],
      [['report', 'outcomes.jsonl', '--bucket', 'minute'], '--bucket must be auto, hour, day, week, got "minute"'],
      [['report', 'outcomes.jsonl', '--alpha', '0.9'], '--alpha must be a number in (0, 0.5), got "0.9"'],
      [['report', 'outcomes.jsonl', '--window', '1.5'], '--window must be an integer from 1 to 1000, got "1.5"'],
      [['report', 'outcomes.jsonl', '--min-baseline', '0'], '--min-baseline must be a positive integer, got "0"'],
      [['report', 'outcomes.jsonl', '--bogus'], 'unknown option --bogus'],
    ] as const) {
      const run = await runCli(args, { cwd: folder });
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toContain(`stopwise report: ${message}`);
    }
    const help = await runCli(['report', '--help'], { cwd: folder });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: stopwise report OUTCOMES\.jsonl \[options\]/);
    expect((await runCli(['--help'])).stdout).toMatch(/\n {2}report +report on recorded run outcomes/);
  });
});
