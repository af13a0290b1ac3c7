import { calibrateStallDetector } from '../calibrate/calibrate-stall-detector.js';
import { formatPercent } from '../calibrate/calibrate-thresholds.js';
import { describeStallOptions, PATTERN_OPTION, stallCalibrationSentences, type StallCalibrationTarget } from '../calibrate/describe-stall-calibration.js';
import { renderStallCalibrationReport } from '../calibrate/stall-calibration-report-html.js';
import { parseStallRuns } from '../calibrate/stall-run-file.js';
import type { StallCalibration } from '../calibrate/calibrate-stall-detector.js';
import { formatLineError } from '../input/line-fields.js';
import { CliUsageError, type CliIo } from './cli-io.js';
import { formatTable } from './format-table.js';
import { parseCommandLine } from './parse-command-line.js';
import { readTextFile } from './read-inputs.js';
import { readNumberOption } from './read-number-option.js';
import { writeOutputFile } from './write-output-file.js';

const HELP = `usage: stopwise calibrate-stall RUNS.jsonl --max-false-alarm F [options]

Chooses the stall detector's thresholds from labelled agent runs: the options
that stop the most steps of wasted runs while the upper confidence bound
(Clopper-Pearson) on the share of successful runs stopped before their end
stays at or below F.

options:
  --max-false-alarm F   the highest share of successful runs that may be stopped
                        early, in (0, 1) (required; 0.02 is 2%)
  --confidence C        the confidence of the upper bound (default 0.95)
  --html FILE           write a self-contained HTML report with charts
  --json                print { options, figures } as JSON (options as
                        DEFAULT_STALL_OPTIONS has them, for the stall condition)
  -h, --help            show this help

Each line of RUNS.jsonl is one run, its steps in order and its label:
  {"steps": [{"tool": "bash", "input": "npm test", "output": "1 failed", "exitCode": 1},
             {"text": "I will look at the parser."}], "label": "wasted"}
  label: "wasted" (ended by a budget without success) or "success"
  step fields: tool, input, output, error, exitCode, text, tests

exit codes: 0 calibrated (whether or not any options met the bound); 1 the file
or a line could not be read, or the report could not be written; 2 usage error`;

/** `stopwise calibrate-stall`: chooses stall thresholds from labelled runs, with a bound on false alarms. */
export async function calibrateStallCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(
    argv,
    {
      'max-false-alarm': { type: 'string' },
      confidence: { type: 'string' },
      html: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    HELP,
  );
  const { values } = parsed;
  if (values.help) {
    io.stdout(`${HELP}\n`);
    return 0;
  }
  if (parsed.positionals.length !== 1) {
    throw new CliUsageError(`expected one file of labelled runs, got ${parsed.positionals.length}\n\n${HELP}`);
  }
  const file = parsed.positionals[0] as string;
  const inUnit = (v: number): boolean => v > 0 && v < 1;
  const maxFalseAlarm = readNumberOption('max-false-alarm', values['max-false-alarm'], inUnit, 'a number in (0, 1)');
  if (maxFalseAlarm === undefined) throw new CliUsageError(`--max-false-alarm is required (for example 0.02)\n\n${HELP}`);
  const confidence = readNumberOption('confidence', values.confidence, inUnit, 'a number in (0, 1)') ?? 0.95;
  if (values.html !== undefined && values.html.trim() === '') throw new CliUsageError('--html must not be empty');

  const read = await readTextFile(file, io.cwd);
  if (!read.ok) {
    io.stderr(`stopwise calibrate-stall: ${file}: ${read.message}\n`);
    return 1;
  }
  const runs = parseStallRuns(read.text, file);
  if (!runs.ok) {
    io.stderr(`stopwise calibrate-stall: ${formatLineError(runs.error)}\n`);
    return 1;
  }
  const target: StallCalibrationTarget = { maxFalseAlarm, confidence };
  const calibration = calibrateStallDetector(runs.runs, { maxFalseAlarm, confidence });

  const notes: string[] = [];
  if (values.html !== undefined) {
    const written = await writeOutputFile(values.html, io.cwd, renderStallCalibrationReport({ calibration, target, source: file }));
    if (!written.ok) {
      io.stderr(`stopwise calibrate-stall: ${values.html}: ${written.message}\n`);
      return 1;
    }
    notes.push(`report written to ${values.html}`);
  }
  if (values.json) {
    io.stdout(`${JSON.stringify({ options: calibration.options, figures: calibration.figures }, null, 2)}\n`);
    for (const note of notes) io.stderr(`stopwise calibrate-stall: ${note}\n`);
  } else {
    io.stdout(renderText(file, calibration, target));
    for (const note of notes) io.stdout(`${note}\n`);
  }
  return 0;
}

function renderText(file: string, calibration: StallCalibration, target: StallCalibrationTarget): string {
  const { figures } = calibration;
  const share = (part: number, whole: number): string => (whole === 0 ? '-' : formatPercent(part / whole));
  const out: string[] = [
    ...stallCalibrationSentences(calibration, target),
    '',
    `${file}: ${figures.wastedRuns + figures.successRuns} runs (${figures.wastedRuns} wasted, ${figures.successRuns} successful)`,
    `target: successful runs stopped before their end <= ${formatPercent(target.maxFalseAlarm)} by the Clopper-Pearson upper bound at ${formatPercent(target.confidence)} confidence`,
    `verdict: ${calibration.certified ? 'CHOSEN' : 'NOT CERTIFIED (every pattern off)'}`,
    '',
    formatTable(
      ['option', 'setting', 'stops a run on'],
      describeStallOptions(calibration.options).map((row) => [row.key, row.setting, row.meaning]),
    ),
    '',
    formatTable(
      ['', 'count', 'share'],
      [
        ['wasted runs stopped', `${figures.wastedCaught} of ${figures.wastedRuns}`, share(figures.wastedCaught, figures.wastedRuns)],
        ['wasted steps saved', `${figures.wastedStepsSaved} of ${figures.wastedSteps}`, share(figures.wastedStepsSaved, figures.wastedSteps)],
        ['successful runs stopped early', `${figures.falseAlarms} of ${figures.successRuns}`, share(figures.falseAlarms, figures.successRuns)],
        [`upper bound (${formatPercent(target.confidence)})`, '', formatPercent(figures.falseAlarmUpper)],
      ],
      ['left', 'right', 'right'],
    ),
  ];
  if (figures.patterns.length > 0) {
    out.push(
      '',
      formatTable(
        ['pattern that fired first', 'option', 'wasted runs', 'steps saved', 'successful runs stopped early'],
        figures.patterns.map((p) => [p.pattern, PATTERN_OPTION[p.pattern], String(p.wastedRuns), String(p.wastedStepsSaved), String(p.successRunsStopped)]),
        ['left', 'left', 'right', 'right', 'right'],
      ),
    );
  }
  out.push(
    '',
    '  steps saved: the steps of a wasted run after the step the detector fired on',
    '  upper bound: the share of successful runs stopped early that these runs cannot rule out; it holds for options fixed in advance',
  );
  return `${out.join('\n')}\n`;
}
