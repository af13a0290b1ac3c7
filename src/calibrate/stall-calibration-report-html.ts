import { formatPercent } from './calibrate-thresholds.js';
import type { StallCalibration } from './calibrate-stall-detector.js';
import { describeStallOptions, PATTERN_OPTION, stallCalibrationSentences, type StallCalibrationTarget } from './describe-stall-calibration.js';
import { escapeHtml, reportPageHead } from '../html/report-page.js';

/** The stall page's own rules, after the shared style: the options table reads left to right, turned-off patterns greyed. */
const PAGE_STYLE = `#options th, #options td { text-align: left; }
#options tr.off td { color: #8a9299; }`;

/** What the stall calibration report shows. */
export interface StallCalibrationReportInput {
  readonly calibration: StallCalibration;
  readonly target: StallCalibrationTarget;
  /** Where the runs came from, shown in the title. */
  readonly source: string;
}

const WIDTH = 460;
const BAR = 18;
const GAP = 10;
const LEFT = 170;
const RIGHT = 60;

interface Bar {
  readonly label: string;
  readonly value: number;
  readonly text: string;
  readonly color: string;
}

/**
 * Renders a stall calibration as one self-contained HTML page in the style
 * of the calibration report: the three sentences of the text output, the
 * options chosen in words, the figures, and two inline SVG bar charts (the
 * shares against the false-alarm target, and the pattern that fired first).
 * No script, no external resource; a content security policy forbids any
 * network access.
 */
export function renderStallCalibrationReport(input: StallCalibrationReportInput): string {
  const { calibration, target } = input;
  const { figures } = calibration;
  const sentences = stallCalibrationSentences(calibration, target);
  const share = (part: number, whole: number): number => (whole === 0 ? 0 : part / whole);
  const caught: Bar[] = [
    { label: 'wasted runs stopped', value: share(figures.wastedCaught, figures.wastedRuns), color: '#2471a3' },
    { label: 'wasted steps saved', value: share(figures.wastedStepsSaved, figures.wastedSteps), color: '#17a589' },
  ].map((bar) => ({ ...bar, text: formatPercent(bar.value) }));
  const alarms: Bar[] = [
    { label: 'successful runs stopped', value: share(figures.falseAlarms, figures.successRuns), color: '#c0392b' },
    { label: `upper bound (${formatPercent(target.confidence)})`, value: figures.falseAlarmUpper, color: '#8e44ad' },
  ].map((bar) => ({ ...bar, text: formatPercent(bar.value) }));
  const alarmScale = Math.min(1, Math.max(2 * target.maxFalseAlarm, 1.1 * figures.falseAlarmUpper));
  const patternBars: Bar[] = figures.patterns.flatMap((p) => [
    { label: `${p.pattern}: wasted`, value: p.wastedRuns, text: String(p.wastedRuns), color: '#2471a3' },
    { label: `${p.pattern}: successful`, value: p.successRunsStopped, text: String(p.successRunsStopped), color: '#c0392b' },
  ]);
  const verdict = calibration.certified
    ? `<p class="verdict ok">Chosen: at most ${formatPercent(figures.falseAlarmUpper)} of successful runs stopped early (${formatPercent(target.confidence)} confidence), target ${formatPercent(target.maxFalseAlarm)}</p>`
    : '<p class="verdict no">Not certified: every pattern is off</p>';
  const optionRows = describeStallOptions(calibration.options)
    .map((row) => `<tr class="${row.setting === 'off' ? 'off' : 'on'}"><td>${row.key}</td><td>${escapeHtml(row.setting)}</td><td>${escapeHtml(row.meaning)}</td></tr>`)
    .join('');
  const patternRows = figures.patterns
    .map(
      (p) =>
        `<tr><td>${p.pattern}</td><td>${PATTERN_OPTION[p.pattern]}</td><td>${p.wastedRuns}</td><td>${p.wastedStepsSaved}</td><td>${p.successRunsStopped}</td></tr>`,
    )
    .join('');

  return `${reportPageHead(`stopwise stall calibration: ${input.source}`, PAGE_STYLE)}
<h1>stopwise stall calibration</h1>
<p class="sub">${escapeHtml(input.source)}: ${figures.wastedRuns + figures.successRuns} runs (${figures.wastedRuns} wasted, ${figures.successRuns} successful). Target: successful runs stopped before their end ≤ ${formatPercent(target.maxFalseAlarm)}, by the Clopper–Pearson upper bound at ${formatPercent(target.confidence)} confidence.</p>
${verdict}
<div id="summary">${sentences.map((sentence) => `<p>${escapeHtml(sentence)}</p>`).join('\n')}</div>
<h2>Charts</h2>
<div class="charts">
<figure>${barChart('false-alarm-chart', 'successful runs stopped early', alarms, alarmScale, { value: target.maxFalseAlarm, label: `target ${formatPercent(target.maxFalseAlarm)}` })}<figcaption>The share of successful runs the options stop before their end, and its upper bound, which must stay left of the target line.</figcaption></figure>
<figure>${barChart('caught-chart', 'wasted runs stopped and steps saved', caught, 1)}<figcaption>Steps saved are the steps of a wasted run after the step the detector fired on. All shares are measured on the runs the options were chosen from.</figcaption></figure>
<figure>${barChart('pattern-chart', 'runs stopped, by the pattern that fired first', patternBars, Math.max(1, ...patternBars.map((bar) => bar.value)))}<figcaption>${patternBars.length === 0 ? 'No pattern fired on these runs.' : 'Wasted runs (blue) and successful runs stopped before their end (red), by the pattern that fired first.'}</figcaption></figure>
</div>
<h2>Options chosen</h2>
<table id="options"><tr><th>option</th><th>setting</th><th>stops a run on</th></tr>${optionRows}</table>
<h2>Figures</h2>
<table id="figures"><tr><th></th><th>count</th><th>share</th></tr>
<tr><td>wasted runs stopped</td><td>${figures.wastedCaught} of ${figures.wastedRuns}</td><td>${formatPercent(share(figures.wastedCaught, figures.wastedRuns))}</td></tr>
<tr><td>wasted steps saved</td><td>${figures.wastedStepsSaved} of ${figures.wastedSteps}</td><td>${formatPercent(share(figures.wastedStepsSaved, figures.wastedSteps))}</td></tr>
<tr><td>successful runs stopped early</td><td>${figures.falseAlarms} of ${figures.successRuns}</td><td>${formatPercent(share(figures.falseAlarms, figures.successRuns))}</td></tr>
<tr><td>upper bound (${formatPercent(target.confidence)})</td><td></td><td>${formatPercent(figures.falseAlarmUpper)}</td></tr>
</table>
<h2>Per pattern</h2>
${patternRows === '' ? '<p>No pattern fired on these runs.</p>' : `<table id="patterns"><tr><th>pattern that fired first</th><th>option</th><th>wasted runs</th><th>steps saved</th><th>successful runs stopped early</th></tr>${patternRows}</table>`}
</body>
</html>
`;
}

function barChart(id: string, title: string, bars: readonly Bar[], max: number, line?: { value: number; label: string }): string {
  const top = 34;
  const height = top + Math.max(1, bars.length) * (BAR + GAP) + 24;
  const x = (value: number): number => LEFT + (Math.min(value, max) / max) * (WIDTH - LEFT - RIGHT);
  const rows = bars
    .map((bar, i) => {
      const y = top + i * (BAR + GAP);
      return `<g class="bar"><text x="${LEFT - 6}" y="${y + BAR - 5}" text-anchor="end">${escapeHtml(bar.label)}</text><rect x="${LEFT}" y="${y}" width="${Math.max(1, x(bar.value) - LEFT).toFixed(1)}" height="${BAR}" fill="${bar.color}"><title>${escapeHtml(`${bar.label}: ${bar.text}`)}</title></rect><text class="value" x="${(x(bar.value) + 4).toFixed(1)}" y="${y + BAR - 5}">${escapeHtml(bar.text)}</text></g>`;
    })
    .join('');
  const target =
    line === undefined
      ? ''
      : `<g class="target"><line x1="${x(line.value).toFixed(1)}" y1="${top - 6}" x2="${x(line.value).toFixed(1)}" y2="${height - 20}" stroke="#c0392b" stroke-dasharray="2 3"/><text x="${x(line.value).toFixed(1)}" y="${height - 6}" text-anchor="middle">${escapeHtml(line.label)}</text></g>`;
  return `<svg id="${id}" xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${escapeHtml(title)}">
<text x="${WIDTH / 2}" y="16" text-anchor="middle" font-weight="600">${escapeHtml(title)}</text>
<line x1="${LEFT}" y1="${top - 6}" x2="${LEFT}" y2="${height - 20}" stroke="#555"/>
${rows}
${target}
</svg>`;
}
