import { calibrationVerdict, formatPercent, uncertifiedReason, VERDICT_CELL, type CalibrationResult, type ThresholdCalibration } from './calibrate-thresholds.js';
import type { ReliabilityBin } from './calibration-metrics.js';
import { niceTicks } from './nice-ticks.js';
import { escapeHtml, reportPageHead } from '../html/report-page.js';

/** What the HTML report shows. */
export interface CalibrationReportInput {
  readonly result: CalibrationResult;
  /** Reliability bins over all cases. */
  readonly bins: readonly ReliabilityBin[];
  readonly brier: number;
  readonly ece: number;
  /** Where the cases came from, shown in the title. */
  readonly source: string;
}

interface Series {
  readonly name: string;
  readonly color: string;
  readonly dashed?: boolean;
  readonly points: readonly (readonly [number, number | null])[];
}

interface Marker {
  readonly x: number;
  readonly label: string;
}

const WIDTH = 460;
const HEIGHT = 320;
const PAD = { left: 52, right: 16, top: 58, bottom: 44 };
const LEGEND_WIDTH = 210;

/**
 * Renders a calibration as one self-contained HTML page: inline SVG charts
 * (a reliability diagram, the false-done rate against the done threshold and
 * the coverage against it, the chosen thresholds marked) and the figures as
 * tables. No script, no external resource; a content security policy forbids
 * any network access.
 *
 * @example
 * await writeFile('report.html', renderCalibrationReport({ result, bins, brier, ece, source: 'cases.jsonl' }));
 */
export function renderCalibrationReport(input: CalibrationReportInput): string {
  const { result } = input;
  const policy = result.thresholds;
  const markers: Marker[] =
    policy === null
      ? []
      : [
          { x: policy.doneThreshold, label: `done ≥ ${fmt(policy.doneThreshold)}` },
          ...(policy.midBandLow > 0 ? [{ x: policy.midBandLow, label: `mid-band low ${fmt(policy.midBandLow)}` }] : []),
        ];
  const curves = result.curves;
  const riskName = result.settings.risk === 'joint' ? 'false-done rate (over all cases)' : 'share of stopped cases not done';
  const falseDoneSeries: Series[] = [
    { name: 'calibration part', color: '#c0392b', points: curves.calibration.map((p) => [p.threshold, p.falseDoneRate]) },
    ...(curves.holdout === null
      ? []
      : [{ name: 'held-out part', color: '#8e44ad', dashed: true, points: curves.holdout.map((p) => [p.threshold, p.falseDoneRate] as const) }]),
  ];
  const maxRate = Math.max(
    result.settings.alpha * 2,
    ...falseDoneSeries.flatMap((series) => series.points.map(([, y]) => y ?? 0)),
  );
  const coverageSeries: Series[] = [
    { name: 'coverage, calibration', color: '#2471a3', points: curves.calibration.map((p) => [p.threshold, p.coverage]) },
    { name: 'stopped as done, calibration', color: '#17a589', points: curves.calibration.map((p) => [p.threshold, p.doneShare]) },
    ...(curves.holdout === null
      ? []
      : [
          { name: 'coverage, held out', color: '#2471a3', dashed: true, points: curves.holdout.map((p) => [p.threshold, p.coverage] as const) },
          { name: 'stopped as done, held out', color: '#17a589', dashed: true, points: curves.holdout.map((p) => [p.threshold, p.doneShare] as const) },
        ]),
  ];

  const chosen = `doneThreshold <b>${fmt(policy?.doneThreshold ?? NaN)}</b>, midBandLow <b>${fmt(policy?.midBandLow ?? NaN)}</b>`;
  const verdictName = calibrationVerdict(result);
  const verdict =
    verdictName === 'confirmed'
      ? `<p class="verdict ok">Certified: ${chosen}</p>`
      : verdictName === 'not_confirmed'
    ? `<p class="verdict warn">Not confirmed: ${chosen}, certified on the calibration cases; the held-out upper bound ${formatPercent(result.heldOut?.falseDoneUpper ?? NaN)} is above the ${formatPercent(result.settings.alpha)} target</p>`
    : `<p class="verdict no">Not certified (${escapeHtml(uncertifiedReason(result, result.settings.alpha) ?? '')}): never stop on the decision model's word alone</p>`;
  const taskTypes = Object.entries(result.byTaskType);

  return `${reportPageHead(`stopwise calibration: ${input.source}`)}
<h1>stopwise calibration</h1>
<p class="sub">${escapeHtml(input.source)}: ${result.cases.total} cases (${result.cases.done} done, ${result.cases.notDone} not done), ${result.cases.calibration} to calibrate, ${result.cases.holdout} held out, seed ${result.settings.seed}. Target: ${escapeHtml(riskName)} ≤ ${formatPercent(result.settings.alpha)} with confidence ${formatPercent(1 - result.settings.delta)}; false hand-offs ≤ ${formatPercent(result.settings.maxFalseHandoff)}.</p>
${verdict}
<p>${escapeHtml(result.guarantee)}</p>
<p>${escapeHtml(result.recommendation)}</p>
${result.warnings.length === 0 ? '' : `<ul class="warnings">${result.warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul>`}
<h2>Charts</h2>
<div class="charts">
<figure>${reliabilityDiagram(input.bins, markers)}<figcaption>Reliability: share labelled done against the mean score (lowest criterion probability) per bin, all cases; dot area grows with the number of cases. Brier ${fmt(input.brier)}, ECE ${fmt(input.ece)}.</figcaption></figure>
<figure>${lineChart({ id: 'false-done-chart', title: `${riskName} against the done threshold`, yLabel: 'rate', yMax: Math.min(1, maxRate * 1.1), series: falseDoneSeries, markers, horizontal: { y: result.settings.alpha, label: `alpha ${formatPercent(result.settings.alpha)}` } })}<figcaption>${
    !result.certified
      ? `No threshold passed the fixed-sequence test walking down from ${fmt(result.settings.grid[0] ?? NaN)}, so none is certified.`
      : `The certified threshold is the lowest one the fixed-sequence test passed, walking down from ${fmt(result.settings.grid[0] ?? NaN)}.`
  }</figcaption></figure>
<figure>${lineChart({ id: 'coverage-chart', title: 'coverage and done share against the done threshold', yLabel: 'share of cases', yMax: 1, series: coverageSeries, markers, legendAt: 'bottom-left' })}<figcaption>Coverage is the share of cases not handed to a person${policy === null ? '' : `, with the mid-band low bound at ${fmt(policy.midBandLow)}`}.</figcaption></figure>
</div>
<h2>Figures</h2>
${figuresTable(result)}
${taskTypes.length === 0 ? '' : `<h2>Per task type</h2>${taskTypeTable(taskTypes)}`}
<h2>Threshold walk</h2>
${walkTable(result)}
</body>
</html>
`;
}

function reliabilityDiagram(bins: readonly ReliabilityBin[], markers: readonly Marker[]): string {
  const sx = scale(0, 1, PAD.left, WIDTH - PAD.right);
  const sy = scale(0, 1, HEIGHT - PAD.bottom, PAD.top);
  const filled = bins.filter((bin) => bin.count > 0 && bin.meanProbability !== null && bin.doneRate !== null);
  const most = Math.max(1, ...filled.map((bin) => bin.count));
  const path = filled.map((bin, i) => `${i === 0 ? 'M' : 'L'}${sx(bin.meanProbability ?? 0).toFixed(1)},${sy(bin.doneRate ?? 0).toFixed(1)}`).join(' ');
  const dots = filled
    .map(
      (bin) =>
        `<circle class="bin" cx="${sx(bin.meanProbability ?? 0).toFixed(1)}" cy="${sy(bin.doneRate ?? 0).toFixed(1)}" r="${(3 + 9 * Math.sqrt(bin.count / most)).toFixed(1)}" fill="#2471a3" fill-opacity="0.55" stroke="#1b4f72"><title>${fmt(bin.lower)}–${fmt(bin.upper)}: ${bin.count} cases, mean score ${fmt(bin.meanProbability ?? 0)}, done ${formatPercent(bin.doneRate ?? 0)}</title></circle>`,
    )
    .join('');
  return `<svg id="reliability-diagram" xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="reliability diagram">
<text x="${WIDTH / 2}" y="16" text-anchor="middle" font-weight="600">reliability diagram</text>
${axes(sx, sy, niceTicks(1), 'mean score (lowest criterion probability)', 'share labelled done')}
<line x1="${sx(0)}" y1="${sy(0)}" x2="${sx(1)}" y2="${sy(1)}" stroke="#999" stroke-dasharray="4 4"><title>perfect calibration</title></line>
${markerLines(markers, sx, sy(0), sy(1))}
${path === '' ? '' : `<path d="${path}" fill="none" stroke="#1b4f72" stroke-width="1.5"/>`}
${dots}
</svg>`;
}

function lineChart(options: {
  id: string;
  title: string;
  yLabel: string;
  yMax: number;
  series: readonly Series[];
  markers: readonly Marker[];
  horizontal?: { y: number; label: string };
  legendAt?: 'top-right' | 'bottom-left';
}): string {
  const yTicks = niceTicks(options.yMax);
  const yMax = yTicks.at(-1) as number;
  const sx = scale(0, 1, PAD.left, WIDTH - PAD.right);
  const sy = scale(0, yMax, HEIGHT - PAD.bottom, PAD.top);
  const lines = options.series
    .map((series) => {
      let d = '';
      let pen = false;
      for (const [x, y] of series.points) {
        if (y === null) {
          pen = false;
          continue;
        }
        d += `${pen ? 'L' : 'M'}${sx(x).toFixed(1)},${sy(Math.min(y, yMax)).toFixed(1)} `;
        pen = true;
      }
      return d === ''
        ? ''
        : `<path class="series" d="${d.trim()}" fill="none" stroke="${series.color}" stroke-width="2"${series.dashed === true ? ' stroke-dasharray="6 4"' : ''}><title>${escapeHtml(series.name)}</title></path>`;
    })
    .join('\n');
  const legendHeight = options.series.length * 14 + 4;
  const legendLeft = options.legendAt === 'bottom-left' ? PAD.left + 8 : WIDTH - PAD.right - LEGEND_WIDTH;
  const legendTop = options.legendAt === 'bottom-left' ? HEIGHT - PAD.bottom - legendHeight - 6 : PAD.top + 2;
  const legend = `<rect x="${legendLeft - 4}" y="${legendTop}" width="${LEGEND_WIDTH}" height="${legendHeight}" fill="#fff" fill-opacity="0.85"/>${options.series
    .map(
      (series, i) =>
        `<g transform="translate(${legendLeft},${legendTop + 8 + i * 14})"><line x1="0" y1="0" x2="18" y2="0" stroke="${series.color}" stroke-width="2"${series.dashed === true ? ' stroke-dasharray="6 4"' : ''}/><text x="24" y="4">${escapeHtml(series.name)}</text></g>`,
    )
    .join('')}`;
  const horizontal =
    options.horizontal === undefined
      ? ''
      : `<line class="target" x1="${sx(0)}" y1="${sy(options.horizontal.y).toFixed(1)}" x2="${sx(1)}" y2="${sy(options.horizontal.y).toFixed(1)}" stroke="#c0392b" stroke-dasharray="2 3"/><text x="${sx(1) - 4}" y="${(sy(options.horizontal.y) - 4).toFixed(1)}" text-anchor="end">${escapeHtml(options.horizontal.label)}</text>`;
  return `<svg id="${options.id}" xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeHtml(options.title)}">
<text x="${WIDTH / 2}" y="16" text-anchor="middle" font-weight="600">${escapeHtml(options.title)}</text>
${axes(sx, sy, yTicks, 'done threshold', options.yLabel)}
${horizontal}
${markerLines(options.markers, sx, sy(0), sy(yMax))}
${lines}
${legend}
</svg>`;
}

function axes(sx: (v: number) => number, sy: (v: number) => number, yTicks: readonly number[], xLabel: string, yLabel: string): string {
  const yMax = yTicks.at(-1) as number;
  const x = niceTicks(1)
    .map((t) => `<line x1="${sx(t)}" y1="${sy(0)}" x2="${sx(t)}" y2="${sy(0) + 4}" stroke="#555"/><text x="${sx(t)}" y="${sy(0) + 16}" text-anchor="middle">${fmt(t)}</text>`)
    .join('');
  const y = yTicks
    .map((v) => `<line x1="${sx(0) - 4}" y1="${sy(v).toFixed(1)}" x2="${sx(1)}" y2="${sy(v).toFixed(1)}" stroke="#eee"/><text x="${sx(0) - 6}" y="${(sy(v) + 4).toFixed(1)}" text-anchor="end">${fmt(v)}</text>`)
    .join('');
  return `<g class="axes">${y}${x}<line x1="${sx(0)}" y1="${sy(0)}" x2="${sx(1)}" y2="${sy(0)}" stroke="#555"/><line x1="${sx(0)}" y1="${sy(0)}" x2="${sx(0)}" y2="${sy(yMax)}" stroke="#555"/><text x="${(sx(0) + sx(1)) / 2}" y="${HEIGHT - 8}" text-anchor="middle">${escapeHtml(xLabel)}</text><text transform="translate(14,${(sy(0) + sy(yMax)) / 2}) rotate(-90)" text-anchor="middle">${escapeHtml(yLabel)}</text></g>`;
}

function markerLines(markers: readonly Marker[], sx: (v: number) => number, bottom: number, top: number): string {
  return markers
    .map(
      (marker, i) =>
        `<g class="chosen-threshold"><line x1="${sx(marker.x).toFixed(1)}" y1="${bottom}" x2="${sx(marker.x).toFixed(1)}" y2="${top - 10 - i * 13}" stroke="#111" stroke-width="1.5" stroke-dasharray="5 3"/><text x="${Math.min(sx(1) - 40, Math.max(sx(0) + 40, sx(marker.x))).toFixed(1)}" y="${top - 14 - i * 13}" text-anchor="middle">${escapeHtml(marker.label)}</text></g>`,
    )
    .join('');
}

function figuresTable(result: CalibrationResult): string {
  const cal = result.calibrationEvaluation;
  const held = result.heldOut;
  if (cal === null) return '<p>No policy was certified, so there are no figures for one.</p>';
  const rate = (value: number | null): string => (value === null ? '–' : formatPercent(value));
  const row = (name: string, a: string, b: string, c = ''): string => `<tr><td>${name}</td><td>${a}</td><td>${b}</td><td>${c}</td></tr>`;
  const heldEval = held?.evaluation;
  const confidence = held === null ? '' : formatPercent(held.confidence);
  return `<table id="figures"><tr><th></th><th>calibration</th><th>held out</th><th>held-out upper bound${confidence === '' ? '' : ` (${confidence})`}</th></tr>
${row('cases', String(cal.cases), heldEval === undefined ? '–' : String(heldEval.cases))}
${row('false dones', `${cal.falseDones} (${rate(cal.falseDoneRate)})`, heldEval === undefined ? '–' : `${heldEval.falseDones} (${rate(heldEval.falseDoneRate)})`, held === null ? '' : formatPercent(held.falseDoneUpper))}
${row('false hand-offs', `${cal.falseHandoffs} (${rate(cal.falseHandoffRate)})`, heldEval === undefined ? '–' : `${heldEval.falseHandoffs} (${rate(heldEval.falseHandoffRate)})`, held === null ? '' : formatPercent(held.falseHandoffUpper))}
${row('precision', rate(cal.precision), rate(heldEval?.precision ?? null))}
${row('coverage', rate(cal.coverage), rate(heldEval?.coverage ?? null))}
${row('stopped as done', rate(cal.doneShare), rate(heldEval?.doneShare ?? null))}
${row('retry share', rate(cal.retryShare), rate(heldEval?.retryShare ?? null))}
</table>`;
}

function taskTypeTable(entries: readonly (readonly [string, ThresholdCalibration])[]): string {
  const rows = entries
    .map(([name, group]) => {
      const held = group.heldOut;
      return `<tr><td>${escapeHtml(name)}</td><td>${group.cases.total}</td><td>${VERDICT_CELL[calibrationVerdict(group)]}</td><td>${group.thresholds === null ? '–' : fmt(group.thresholds.doneThreshold)}</td><td>${group.thresholds === null ? '–' : fmt(group.thresholds.midBandLow)}</td><td>${held === null ? '–' : `${held.falseDones}/${held.falseDoneBase} (≤ ${formatPercent(held.falseDoneUpper)})`}</td></tr>`;
    })
    .join('');
  return `<table id="task-types"><tr><th>task type</th><th>cases</th><th>certified</th><th>doneThreshold</th><th>midBandLow</th><th>held-out false dones</th></tr>${rows}</table>`;
}

function walkTable(result: CalibrationResult): string {
  const rows = result.doneThreshold.tests
    .map(
      (test) =>
        `<tr><td>${fmt(test.threshold)}</td><td>${test.stopped}</td><td>${test.falseDones}</td><td>${test.n}</td><td>${test.pValue.toExponential(2)}</td><td>${test.passed ? 'passed' : 'failed'}</td></tr>`,
    )
    .join('');
  return `<table id="walk"><tr><th>threshold</th><th>stopped</th><th>false dones</th><th>n</th><th>p-value</th><th>at δ ${fmt(result.settings.delta)}</th></tr>${rows}</table>`;
}

function scale(d0: number, d1: number, r0: number, r1: number): (v: number) => number {
  return (v) => r0 + ((v - d0) / (d1 - d0 || 1)) * (r1 - r0);
}

function fmt(value: number): string {
  return Number.isFinite(value) ? String(Number(value.toFixed(3))) : '–';
}
