import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { cutText } from '../core/cut-text.js';
import { formatCost } from '../core/format-cost.js';
import { STOP_EXITS } from '../core/policy/stop-decision.js';
import { formatLineError } from '../input/line-fields.js';
import { formatWait } from '../report/format-wait.js';
import { describeLimitFigure } from '../core/suggest-limits.js';
import { BUCKET_WIDTHS, describeLimitShare, type BucketWidth } from '../report/limit-share-alerts.js';
import { buildOutcomeReport, type OutcomeReport, type OutcomeReportOptions } from '../report/outcome-report.js';
import { renderOutcomeReport } from '../report/outcome-report-html.js';
import type { SkippedLines } from '../report/parse-outcome-records.js';
import { readOutcomeRecordsFileInParallel } from '../report/read-outcome-records-in-parallel.js';
import { CliUsageError, type CliIo } from './cli-io.js';
import { countNoun } from '../core/count-noun.js';
import { formatTable } from './format-table.js';
import { parseCommandLine } from './parse-command-line.js';

const HELP = `usage: stopwise report OUTCOMES.jsonl [options]

Reports on recorded runs: how they ended per task type, alerts where the share
of limit stops rose above its usual band, the give-ups and hand-offs to
review, the time people took to answer, the true-success and correct-give-up
rates, and the limits the successful runs suggest.

options:
  --json               print the report as JSON
  --html FILE          write a self-contained HTML page with charts
  --bucket auto|hour|day|week
                       the time bucket of the limit-share watch (default auto:
                       the narrowest giving at most 120 buckets; UTC)
  --window N           buckets before a bucket that make its baseline (default 7)
  --alpha A            the tail probability that alerts (default 0.01)
  --min-baseline N     runs a baseline needs before its bucket is tested (default 20)
  --skip-invalid       skip unreadable lines (counted on stderr) instead of stopping
  -h, --help           show this help

Each line of OUTCOMES.jsonl is one run:
  {"outcome": <StopOutcome>, "taskType": "bugfix", "independentCheck": true,
   "impossible": false, "at": "2026-03-01T12:00:00Z"}
(appendOutcomeRecord from stopwise/report writes them, and so does the stop
hook with "outcomesFile" in stopwise.config.json).

exit codes: 0 the report was made (an alert does not change it); 1 the file or a
line could not be read, or the page could not be written; 2 usage error`;

/** How many review-queue rows the text output lists. */
const TEXT_REVIEW_ROWS = 10;

/** `stopwise report`: a report on recorded run outcomes. */
export async function reportCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(
    argv,
    {
      json: { type: 'boolean', default: false },
      html: { type: 'string' },
      bucket: { type: 'string' },
      window: { type: 'string' },
      alpha: { type: 'string' },
      'min-baseline': { type: 'string' },
      'skip-invalid': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    HELP,
  );
  const { values } = parsed;
  if (values.help) {
    io.stdout(`${HELP}\n`);
    return 0;
  }
  if (parsed.positionals.length !== 1) throw new CliUsageError(`expected one outcomes file, got ${parsed.positionals.length}\n\n${HELP}`);
  const file = parsed.positionals[0] as string;
  if (values.bucket !== undefined && values.bucket !== 'auto' && !(BUCKET_WIDTHS as readonly string[]).includes(values.bucket)) {
    throw new CliUsageError(`--bucket must be auto, ${BUCKET_WIDTHS.join(', ')}, got "${values.bucket}"`);
  }
  if (values.html !== undefined && values.html.trim() === '') throw new CliUsageError('--html needs a file name');
  const window = readNumber('window', values.window, (v) => Number.isInteger(v) && v >= 1 && v <= 1000, 'an integer from 1 to 1000');
  const alpha = readNumber('alpha', values.alpha, (v) => v > 0 && v < 0.5, 'a number in (0, 0.5)');
  const minBaselineRuns = readNumber('min-baseline', values['min-baseline'], (v) => Number.isInteger(v) && v >= 1, 'a positive integer');
  const options: OutcomeReportOptions = {
    ...(values.bucket === undefined ? {} : { bucket: values.bucket as BucketWidth | 'auto' }),
    ...(window === undefined ? {} : { window }),
    ...(alpha === undefined ? {} : { alpha }),
    ...(minBaselineRuns === undefined ? {} : { minBaselineRuns }),
  };

  const records = await readOutcomeRecordsFileInParallel(resolve(io.cwd, file), file, { skipInvalid: values['skip-invalid'] });
  if (!records.ok && 'io' in records) {
    io.stderr(`stopwise report: ${file}: ${records.io}\n`);
    return 1;
  }
  if (!records.ok) {
    const hint = records.error.line === undefined || values['skip-invalid'] ? '' : ' (--skip-invalid skips unreadable lines)';
    io.stderr(`stopwise report: ${formatLineError(records.error)}${hint}\n`);
    return 1;
  }
  let report: OutcomeReport;
  try {
    report = buildOutcomeReport(records.runs, options);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    io.stderr(`stopwise report: ${file}: ${error.message}\n`);
    return 1;
  }
  const skipped = records.skipped;
  if (skipped.count > 0) {
    const more = skipped.count > skipped.lines.length ? ', ...' : '';
    const firstProblem = skipped.first === undefined ? '' : `; the first: ${formatLineError(skipped.first)}`;
    io.stderr(`stopwise report: ${countNoun(skipped.count, 'unreadable line')} skipped (line ${skipped.lines.join(', ')}${more})${firstProblem}\n`);
  }
  if (values.html !== undefined) {
    const html = renderOutcomeReport({ report, source: file, skipped });
    try {
      const path = resolve(io.cwd, values.html);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, html);
    } catch (error) {
      io.stderr(`stopwise report: ${values.html}: could not write (${(error as Error).message})\n`);
      return 1;
    }
  }
  if (values.json) {
    io.stdout(`${JSON.stringify({ source: file, skipped, ...report }, null, 2)}\n`);
    if (values.html !== undefined) io.stderr(`stopwise report: report written to ${values.html}\n`);
  } else {
    io.stdout(renderText(file, report, skipped));
    if (values.html !== undefined) io.stdout(`report written to ${values.html}\n`);
  }
  return 0;
}

function readNumber(name: string, raw: string | undefined, valid: (value: number) => boolean, expected: string): number | undefined {
  if (raw === undefined) return undefined;
  const value = raw.trim() === '' ? Number.NaN : Number(raw);
  if (!Number.isFinite(value) || !valid(value)) throw new CliUsageError(`--${name} must be ${expected}, got "${raw}"`);
  return value;
}

function renderText(file: string, report: OutcomeReport, skipped: SkippedLines): string {
  const types = Object.entries(report.byTaskType);
  const { settings } = report.limitShare;
  const queue = report.reviewQueue;
  const gaveUp = queue.filter((item) => item.exit === 'gave_up').length;
  const out: string[] = [
    `${file}: ${countNoun(report.runs, 'run')} of ${countNoun(types.length, 'task type')}, ended from ${minute(report.from)} to ${minute(report.to)} (UTC)${skipped.count === 0 ? '' : `; ${countNoun(skipped.count, 'unreadable line')} skipped`}.`,
    describeLimitShare({ ...report.limitShare, alerts: report.alerts }),
  ];
  for (const alert of report.alerts) {
    const kinds = Object.entries(alert.byLimit).map(([kind, count]) => `${kind} ${count}`);
    out.push(
      `  ${alert.taskType}, ${settings.bucket} of ${minute(alert.start)}: ${alert.limitStops} of ${alert.runs} runs stopped at a limit (${share(alert.share)}${kinds.length === 0 ? '' : `: ${kinds.join(', ')}`}), usual at most ${share(alert.bandHigh)}; the previous ${settings.window} ${settings.bucket}s: ${share(alert.baselineShare)} of ${alert.baselineRuns} runs (p = ${alert.pValue.toPrecision(2)})`,
    );
  }
  out.push(
    queue.length === 0
      ? 'Nothing to review: no run gave up or was handed off.'
      : `${countNoun(queue.length, 'run')} to review: ${countNoun(gaveUp, 'give-up')} and ${countNoun(queue.length - gaveUp, 'hand-off')}.`,
    '',
    'how runs ended:',
    formatTable(
      ['task type', 'runs', ...STOP_EXITS],
      types.map(([type, summary]) => [type, String(summary.runs), ...STOP_EXITS.map((exit) => `${summary.counts[exit]} (${share(summary.shares[exit])})`)]),
      ['left', 'right', 'right', 'right', 'right', 'right', 'right'],
    ),
    '',
    'true success (the share of checked successes an independent check confirmed) and correct give-ups (of the tasks impossible on purpose):',
    formatTable(
      ['task type', 'checked successes', 'true success', 'impossible', 'correct give-up'],
      types.map(([type, summary]) => [
        type,
        String(summary.checkedSuccesses),
        summary.trueSuccessRate === null ? '-' : share(summary.trueSuccessRate),
        String(summary.impossibleRuns),
        summary.correctGiveUpRate === null ? '-' : share(summary.correctGiveUpRate),
      ]),
      ['left', 'right', 'right', 'right', 'right'],
    ),
  );
  const waits = Object.entries(report.humanWaits);
  out.push('');
  if (waits.length === 0) out.push('time people took to answer: no run asked a person anything.');
  else {
    out.push(
      'time people took to answer:',
      formatTable(
        ['task type', 'questions', 'answered', 'timed out', 'nobody to ask', 'median', 'p90', 'longest', 'total waiting'],
        waits.map(([type, wait]) => [
          type,
          String(wait.questions),
          String(wait.answered),
          String(wait.timedOut),
          String(wait.nobodyAsked),
          wait.answerMs === null ? '-' : formatWait(wait.answerMs.median),
          wait.answerMs === null ? '-' : formatWait(wait.answerMs.p90),
          wait.answerMs === null ? '-' : formatWait(wait.answerMs.max),
          formatWait(wait.totalWaitMs),
        ]),
        ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
      ),
    );
  }
  if (queue.length > 0) {
    out.push(
      '',
      `review queue (newest ${Math.min(TEXT_REVIEW_ROWS, queue.length)} of ${queue.length}${queue.length > TEXT_REVIEW_ROWS ? '; --json or --html lists more' : ''}):`,
      formatTable(
        ['ended (UTC)', 'task type', 'exit', 'steps', 'waited', 'note or question'],
        queue.slice(0, TEXT_REVIEW_ROWS).map((item) => [
          minute(item.at),
          item.taskType,
          item.exit,
          String(item.steps),
          item.waitedMs === undefined ? '-' : formatWait(item.waitedMs),
          oneLine(item.note),
        ]),
        ['left', 'left', 'left', 'right', 'right', 'left'],
      ),
    );
  }
  const limits = Object.entries(report.suggestedLimits);
  const first = limits[0]?.[1];
  out.push(
    '',
    `suggested limits (the ${share(first?.quantile ?? 0.95)} quantile of the successful runs, times ${first?.headroom ?? 1.25}; each from the runs in brackets, none from fewer than ${first?.minRuns ?? 20}):`,
    formatTable(
      ['task type', 'successes', 'maxSteps', 'maxWallClockMs', 'maxCost'],
      limits.map(([type, suggestion]) => [
        type,
        String(suggestion.successes),
        describeLimitFigure(suggestion, 'maxSteps', String),
        describeLimitFigure(suggestion, 'maxWallClockMs', String),
        describeLimitFigure(suggestion, 'maxCost', formatCost),
      ]),
      ['left', 'right', 'right', 'right', 'right'],
    ),
  );
  return `${out.join('\n')}\n`;
}

function minute(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}

function share(value: number): string {
  return `${Number((value * 100).toFixed(1))}%`;
}

/** A note on one line of a table, cut to 100 characters. */
function oneLine(text: string): string {
  return cutText(text.replace(/\s+/g, ' ').trim(), 100);
}
