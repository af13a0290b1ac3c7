import { escapeHtml, reportPageHead } from '../html/report-page.js';
import { niceTicks } from '../calibrate/nice-ticks.js';
import { formatCost } from '../core/format-cost.js';
import { STOP_EXITS, type StopExit } from '../core/policy/stop-decision.js';
import { formatWait } from './format-wait.js';
import { describeLimitShare, type BucketWidth, type LimitShareBucket } from './limit-share-alerts.js';
import type { OutcomeReport } from './outcome-report.js';
import { describeLimitFigure } from '../core/suggest-limits.js';
import type { SkippedLines } from './parse-outcome-records.js';

/** The outcomes page's own rules, after the shared style: its banners, row heights and the review queue's text cells. */
const PAGE_STYLE = `h3 { font-size: 14px; margin: 12px 0 4px; }
.note { color: #586069; margin: 0 0 12px; }
.banner { font-size: 15px; padding: 8px 12px; border-radius: 6px; }
.banner.ok { background: #e6f4ea; border: 1px solid #34a853; }
.banner.alert { background: #fdecea; border: 1px solid #d93025; }
figure { margin: 0 0 12px; }
figcaption { max-width: none; }
th, td { vertical-align: top; }
td.left, th.left { text-align: left; }
td.text { text-align: left; max-width: 560px; white-space: pre-wrap; overflow-wrap: anywhere; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px; }`;

/** What the outcome report page shows. */
export interface OutcomeReportPageInput {
  readonly report: OutcomeReport;
  /** Where the records came from, shown in the title. */
  readonly source: string;
  readonly skipped?: SkippedLines;
  /** How many review-queue rows the page lists, newest first (default 200; the JSON output lists all). */
  readonly reviewRows?: number;
}

const EXIT_COLORS: Readonly<Record<StopExit, string>> = {
  success: '#2e7d32',
  limit: '#ef6c00',
  gave_up: '#6a1b9a',
  need_help: '#1565c0',
  failed: '#c62828',
};

const CHART_WIDTH = 960;
const CHART_HEIGHT = 230;
const PAD = { left: 52, right: 16, top: 30, bottom: 40 };

/**
 * Renders an outcome report as one self-contained HTML page: the exit
 * distribution per task type, the share of limit stops over time with its
 * usual band and a marker on each alert, the review queue, the time people
 * took to answer, the true-success and correct-give-up rates, and the
 * suggested limits. Inline SVG and tables; no script, no external resource,
 * and a content security policy that forbids any network access.
 *
 * @example
 * await writeFile('outcomes.html', renderOutcomeReport({ report: buildOutcomeReport(read.runs), source: 'outcomes.jsonl' }));
 */
export function renderOutcomeReport(input: OutcomeReportPageInput): string {
  const { report } = input;
  const types = Object.keys(report.byTaskType);
  const skipped = input.skipped?.count ?? 0;
  const settings = report.limitShare.settings;
  return `${reportPageHead(`stopwise outcomes: ${input.source}`, PAGE_STYLE)}
<h1>stopwise outcomes</h1>
<p class="sub">${escapeHtml(input.source)}: ${report.runs} runs of ${types.length} task type${types.length === 1 ? '' : 's'}, ended from ${escapeHtml(minute(report.from))} to ${escapeHtml(minute(report.to))} (UTC)${
    skipped === 0 ? '' : `; <span id="skipped">${skipped} unreadable line${skipped === 1 ? '' : 's'} skipped</span>`
  }.</p>
${alertBanner(report)}
<section id="exits">
<h2>How runs ended</h2>
${exitChart(report)}
${exitTable(report)}
</section>
<section id="limit-share">
<h2>Share of limit stops over time</h2>
<p class="note">Per ${settings.bucket} (UTC). The shaded band is the usual range for each ${settings.bucket}: the counts outside both ${formatShare(settings.alpha)} tails of what the previous ${settings.window} ${settings.bucket}s predict (beta-binomial, uniform prior), tested once they hold ${settings.minBaselineRuns} runs. A ${settings.bucket} above the band is an alert (▼).</p>
${types.map((type) => limitShareChart(type, report.limitShare.series[type] ?? [], settings.bucket)).join('\n')}
</section>
<section id="review">
<h2>Review queue: give-ups and hand-offs</h2>
${reviewTable(report, input.reviewRows ?? 200)}
</section>
<section id="human">
<h2>Time people took to answer</h2>
${humanTable(report)}
</section>
<section id="checks">
<h2>True success and correct give-ups</h2>
${ratesTable(report)}
</section>
<section id="limits">
<h2>Suggested limits</h2>
${limitsTable(report)}
</section>
</body>
</html>
`;
}

function alertBanner(report: OutcomeReport): string {
  if (report.alerts.length === 0) return `<p id="alerts" class="banner ok">${escapeHtml(describeLimitShare({ ...report.limitShare, alerts: report.alerts }))}</p>`;
  const items = report.alerts
    .map(
      (alert) =>
        `<li class="alert-item">${escapeHtml(alert.taskType)}, ${escapeHtml(alert.start.slice(0, 16).replace('T', ' '))}: ${alert.limitStops} of ${alert.runs} runs stopped at a limit (${formatShare(alert.share)}; usual at most ${formatShare(alert.bandHigh)}, baseline ${formatShare(alert.baselineShare)} of ${alert.baselineRuns}; p = ${alert.pValue.toPrecision(2)}) ${escapeHtml(describeKinds(alert.byLimit))}</li>`,
    )
    .join('');
  return `<div id="alerts" class="banner alert"><b>${report.alerts.length} alert${report.alerts.length === 1 ? '' : 's'}</b>: the share of limit stops rose above its usual band<ul>${items}</ul></div>`;
}

function describeKinds(byLimit: Readonly<Partial<Record<string, number>>>): string {
  const parts = Object.entries(byLimit).map(([kind, count]) => `${kind} ${count}`);
  return parts.length === 0 ? '' : `[${parts.join(', ')}]`;
}

function exitChart(report: OutcomeReport): string {
  const entries = Object.entries(report.byTaskType);
  const labelWidth = 140;
  const barWidth = CHART_WIDTH - labelWidth - 80;
  const rowHeight = 26;
  const height = entries.length * rowHeight + 40;
  const rows = entries
    .map(([type, summary], row) => {
      let x = labelWidth;
      const y = 10 + row * rowHeight;
      const rects = STOP_EXITS.map((exit) => {
        const width = summary.shares[exit] * barWidth;
        const rect = `<rect class="exit-bar" data-exit="${exit}" x="${x.toFixed(1)}" y="${y}" width="${width.toFixed(1)}" height="18" fill="${EXIT_COLORS[exit]}"><title>${escapeHtml(type)}: ${exit} ${summary.counts[exit]} (${formatShare(summary.shares[exit])})</title></rect>`;
        x += width;
        return rect;
      }).join('');
      return `<g class="exit-row" data-task-type="${escapeHtml(type)}"><text x="${labelWidth - 8}" y="${y + 13}" text-anchor="end">${escapeHtml(type)}</text>${rects}<text x="${labelWidth + barWidth + 6}" y="${y + 13}">${summary.runs} runs</text></g>`;
    })
    .join('');
  const legend = STOP_EXITS.map(
    (exit, i) => `<g transform="translate(${labelWidth + i * 120},${height - 14})"><rect width="10" height="10" y="-9" fill="${EXIT_COLORS[exit]}"/><text x="14">${exit}</text></g>`,
  ).join('');
  return `<figure><svg id="exit-chart" xmlns="http://www.w3.org/2000/svg" width="${CHART_WIDTH}" height="${height}" viewBox="0 0 ${CHART_WIDTH} ${height}" role="img" aria-label="exit distribution per task type">${rows}${legend}</svg><figcaption>The share of each exit per task type.</figcaption></figure>`;
}

function exitTable(report: OutcomeReport): string {
  const header = `<tr><th>task type</th><th>runs</th>${STOP_EXITS.map((exit) => `<th><span class="swatch" style="background:${EXIT_COLORS[exit]}"></span>${exit}</th>`).join('')}</tr>`;
  const rows = Object.entries(report.byTaskType)
    .map(
      ([type, summary]) =>
        `<tr data-task-type="${escapeHtml(type)}"><td>${escapeHtml(type)}</td><td>${summary.runs}</td>${STOP_EXITS.map((exit) => `<td data-exit="${exit}">${summary.counts[exit]} (${formatShare(summary.shares[exit])})</td>`).join('')}</tr>`,
    )
    .join('');
  return `<table id="exit-table">${header}${rows}</table>`;
}

function limitShareChart(type: string, buckets: readonly LimitShareBucket[], bucketWidth: BucketWidth): string {
  const count = Math.max(1, buckets.length);
  const top = Math.min(1, Math.max(0.05, ...buckets.map((b) => Math.max(b.share ?? 0, b.baseline?.high ?? 0))) * 1.1);
  const yTicks = niceTicks(top, 4);
  const yMax = yTicks.at(-1) as number;
  const left = PAD.left;
  const right = CHART_WIDTH - PAD.right;
  const step = (right - left) / count;
  const sx = (i: number): number => left + i * step;
  const sy = (v: number): number => CHART_HEIGHT - PAD.bottom - (Math.min(v, yMax) / yMax) * (CHART_HEIGHT - PAD.bottom - PAD.top);
  const band = buckets
    .map((bucket, i) =>
      bucket.baseline === null
        ? ''
        : `<rect class="band" x="${sx(i).toFixed(1)}" y="${sy(bucket.baseline.high).toFixed(1)}" width="${Math.max(0.5, step).toFixed(2)}" height="${Math.max(0.5, sy(bucket.baseline.low) - sy(bucket.baseline.high)).toFixed(1)}" fill="#90caf9" fill-opacity="0.45"/>`,
    )
    .join('');
  let d = '';
  let pen = false;
  buckets.forEach((bucket, i) => {
    if (bucket.share === null) {
      pen = false;
      return;
    }
    d += `${pen ? 'L' : 'M'}${(sx(i) + step / 2).toFixed(1)},${sy(bucket.share).toFixed(1)} `;
    pen = true;
  });
  const markers = buckets
    .map((bucket, i) => {
      if (!bucket.alert || bucket.share === null || bucket.baseline === null) return '';
      const x = sx(i) + step / 2;
      const y = sy(bucket.share);
      return `<g class="alert-marker" data-start="${bucket.start}"><circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="4.5" fill="#d93025"/><path d="M${(x - 6).toFixed(1)},${(y - 16).toFixed(1)} L${(x + 6).toFixed(1)},${(y - 16).toFixed(1)} L${x.toFixed(1)},${(y - 8).toFixed(1)} Z" fill="#d93025"/><title>alert: ${bucket.limitStops} of ${bucket.runs} runs (${formatShare(bucket.share)}) above the usual ${formatShare(bucket.baseline.high)}, p = ${bucket.baseline.pValue.toPrecision(2)}</title></g>`;
    })
    .join('');
  const every = Math.max(1, Math.ceil(count / 8));
  const xLabels = buckets
    .map((bucket, i) =>
      i % every === 0
        ? `<line x1="${sx(i).toFixed(1)}" y1="${sy(0)}" x2="${sx(i).toFixed(1)}" y2="${sy(0) + 4}" stroke="#555"/><text x="${sx(i).toFixed(1)}" y="${sy(0) + 16}" text-anchor="middle">${escapeHtml(bucketWidth === 'hour' ? bucket.start.slice(0, 13).replace('T', ' ') + 'h' : bucket.start.slice(0, 10))}</text>`
        : '',
    )
    .join('');
  const yLabels = yTicks
    .map((v) => `<line x1="${left - 4}" y1="${sy(v).toFixed(1)}" x2="${right}" y2="${sy(v).toFixed(1)}" stroke="#eee"/><text x="${left - 6}" y="${(sy(v) + 4).toFixed(1)}" text-anchor="end">${formatShare(v)}</text>`)
    .join('');
  const alerts = buckets.filter((bucket) => bucket.alert).length;
  return `<figure><svg class="limit-share-chart" data-task-type="${escapeHtml(type)}" xmlns="http://www.w3.org/2000/svg" width="${CHART_WIDTH}" height="${CHART_HEIGHT}" viewBox="0 0 ${CHART_WIDTH} ${CHART_HEIGHT}" role="img" aria-label="share of limit stops over time, ${escapeHtml(type)}">
<text x="${CHART_WIDTH / 2}" y="16" text-anchor="middle" font-weight="600">${escapeHtml(type)}: share of limit stops per ${bucketWidth}</text>
<g class="axes">${yLabels}${xLabels}<line x1="${left}" y1="${sy(0)}" x2="${right}" y2="${sy(0)}" stroke="#555"/><line x1="${left}" y1="${sy(0)}" x2="${left}" y2="${sy(yMax)}" stroke="#555"/></g>
${band}
${d === '' ? '' : `<path class="share-line" d="${d.trim()}" fill="none" stroke="#ef6c00" stroke-width="2"/>`}
${markers}
</svg><figcaption>${escapeHtml(type)}: ${alerts === 0 ? 'no alert' : `${alerts} alert${alerts === 1 ? '' : 's'}`}; line: the share of limit stops; band: the usual range.</figcaption></figure>`;
}

function reviewTable(report: OutcomeReport, shown: number): string {
  const queue = report.reviewQueue;
  if (queue.length === 0) return '<p id="review-queue-empty">No give-up and no hand-off: nothing to review.</p>';
  const rows = queue
    .slice(0, shown)
    .map(
      (item) =>
        `<tr class="review-item" data-exit="${item.exit}"><td>${escapeHtml(item.at.slice(0, 19).replace('T', ' '))}</td><td class="left">${escapeHtml(item.taskType)}</td><td class="left">${item.exit === 'gave_up' ? 'gave up' : 'hand-off'}${item.impossible === true ? ' (impossible task)' : ''}</td><td>${item.steps}</td><td>${item.waitedMs === undefined ? '–' : item.waitedMs === 0 ? 'nobody asked' : formatWait(item.waitedMs)}</td><td class="text">${escapeHtml(item.note)}</td><td>${item.line}</td></tr>`,
    )
    .join('');
  const more = queue.length > shown ? `<p class="note" id="review-more">${queue.length - shown} older items not shown; <code>stopwise report --json</code> lists all ${queue.length}.</p>` : '';
  const gaveUp = queue.filter((item) => item.exit === 'gave_up').length;
  return `<p class="note" id="review-count">${queue.length} to review: ${gaveUp} give-up${gaveUp === 1 ? '' : 's'} and ${queue.length - gaveUp} hand-off${queue.length - gaveUp === 1 ? '' : 's'}, newest first.</p><table id="review-queue"><tr><th>ended (UTC)</th><th class="left">task type</th><th class="left">exit</th><th>steps</th><th>waited</th><th class="left">note or question</th><th>line</th></tr>${rows}</table>${more}`;
}

function humanTable(report: OutcomeReport): string {
  const entries = Object.entries(report.humanWaits);
  if (entries.length === 0) return '<p id="human-wait-empty">No run asked a person anything.</p>';
  const rows = entries
    .map(
      ([type, waits]) =>
        `<tr data-task-type="${escapeHtml(type)}"><td>${escapeHtml(type)}</td><td>${waits.questions}</td><td>${waits.answered}</td><td>${waits.timedOut}</td><td>${waits.nobodyAsked}</td><td>${waits.answerMs === null ? '–' : formatWait(waits.answerMs.median)}</td><td>${waits.answerMs === null ? '–' : formatWait(waits.answerMs.p90)}</td><td>${waits.answerMs === null ? '–' : formatWait(waits.answerMs.max)}</td><td>${formatWait(waits.totalWaitMs)}</td></tr>`,
    )
    .join('');
  return `<table id="human-wait"><tr><th>task type</th><th>questions</th><th>answered</th><th>timed out</th><th>nobody to ask</th><th>median answer</th><th>90th percentile</th><th>longest</th><th>total waiting</th></tr>${rows}</table>`;
}

function ratesTable(report: OutcomeReport): string {
  const rows = Object.entries(report.byTaskType)
    .map(
      ([type, summary]) =>
        `<tr data-task-type="${escapeHtml(type)}"><td>${escapeHtml(type)}</td><td>${summary.checkedSuccesses}</td><td class="true-success">${summary.trueSuccessRate === null ? '–' : formatShare(summary.trueSuccessRate)}</td><td>${summary.impossibleRuns}</td><td class="correct-give-up">${summary.correctGiveUpRate === null ? '–' : formatShare(summary.correctGiveUpRate)}</td></tr>`,
    )
    .join('');
  return `<p class="note">True success: of the successes an independent check looked at, the share it confirmed. Correct give-up: of the tasks impossible on purpose, the share that ended in a give-up. – when no run carries the flag.</p><table id="rates"><tr><th>task type</th><th>checked successes</th><th>true success</th><th>impossible tasks</th><th>correct give-up</th></tr>${rows}</table>`;
}

function limitsTable(report: OutcomeReport): string {
  const entries = Object.entries(report.suggestedLimits);
  const first = entries[0]?.[1];
  const rows = entries
    .map(
      ([type, suggestion]) =>
        `<tr data-task-type="${escapeHtml(type)}"><td>${escapeHtml(type)}</td><td>${suggestion.successes}</td><td>${escapeHtml(describeLimitFigure(suggestion, 'maxSteps', String, '–'))}</td><td>${escapeHtml(describeLimitFigure(suggestion, 'maxWallClockMs', (ms) => `${ms} (${formatWait(ms)})`, '–'))}</td><td>${escapeHtml(describeLimitFigure(suggestion, 'maxCost', formatCost, '–'))}</td></tr>`,
    )
    .join('');
  const how = first === undefined ? '' : `the ${formatShare(first.quantile)} nearest-rank quantile of the successful runs, times ${first.headroom}`;
  return `<p class="note">From the successful runs only: ${how}; each figure with the runs it rests on, none from fewer than ${first?.minRuns ?? 20}; – when too few successes reported it.</p><table id="suggested-limits"><tr><th>task type</th><th>successes</th><th>maxSteps</th><th>maxWallClockMs</th><th>maxCost</th></tr>${rows}</table>`;
}

function minute(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}

function formatShare(value: number): string {
  return `${Number((value * 100).toFixed(1))}%`;
}
