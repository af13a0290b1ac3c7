import { calibrateStallDetector } from '../calibrate/calibrate-stall-detector.js';
import { fitStallScore, type StallScoreFigures, type StallScoreFit } from '../calibrate/fit-stall-score.js';
import { withStallRule, type CalibratedStall } from '../calibrate/stall-stop-policy.js';
import { hookStopPolicy } from '../core/policy/hook-stop-policy.js';
import type { StopPolicyDocument } from '../core/policy/stop-policy-document.js';
import { loadPolicyFile } from '../input/load-policy-file.js';
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
stays at or below F. With --model score, fits a small learned per-step score
instead (a logistic model with non-negative weights over window features: the
error rate, repeated and nearly repeated outputs, repeated calls, revisited
steps, steps since a new file or a new step, the rule detector's finding) on
part of the runs, and chooses its stop threshold on the successful runs kept
apart, certified by the same bound; with too few of them it certifies nothing
and says how many it needs.

options:
  --max-false-alarm F   the highest share of successful runs that may be stopped
                        early, in (0, 1) (required; 0.02 is 2%)
  --confidence C        the confidence of the upper bound (default 0.95)
  --model M             rules (default): the thresholds of the rule patterns;
                        score: a learned per-step score and its threshold
  --calibration-share S with --model score: the share of the runs kept apart
                        for the threshold (default 0.5)
  --seed N              with --model score: seeds the split (default 1)
  --policy-out FILE     write a stop policy document with the result as a rule
                        (stop for a person, need_help, when it holds), for
                        decide, runAgentLoop and the hook configuration
  --policy FILE         the policy document the rule is added to, after its
                        limit rules (default: the hook preset)
  --html FILE           write a self-contained HTML report with charts (rules)
  --json                print { options, figures } as JSON (options as
                        DEFAULT_STALL_OPTIONS has them, for the stall condition);
                        with --model score, { model, certified,
                        neededSuccessRuns, figures }
  -h, --help            show this help

Each line of RUNS.jsonl is one run, its steps in order and its label:
  {"steps": [{"tool": "bash", "input": "npm test", "output": "1 failed", "exitCode": 1},
             {"text": "I will look at the parser."}], "label": "wasted"}
  label: "wasted" (ended by a budget without success) or "success"
  step fields: tool, input, output, error, exitCode, text, tests, role ("user")

exit codes: 0 calibrated (whether or not any options met the bound); 1 the file
or a line could not be read, or the report could not be written; 2 usage error`;

/** `stopwise calibrate-stall`: chooses stall thresholds from labelled runs, with a bound on false alarms. */
export async function calibrateStallCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(
    argv,
    {
      'max-false-alarm': { type: 'string' },
      confidence: { type: 'string' },
      model: { type: 'string' },
      'calibration-share': { type: 'string' },
      seed: { type: 'string' },
      'policy-out': { type: 'string' },
      policy: { type: 'string' },
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
  const model = values.model ?? 'rules';
  if (model !== 'rules' && model !== 'score') throw new CliUsageError(`--model must be rules or score, got ${model}\n\n${HELP}`);
  if (model === 'score' && values.html !== undefined) throw new CliUsageError('--html reports the rules; it does not go with --model score');
  const calibrationShare = readNumberOption('calibration-share', values['calibration-share'], inUnit, 'a number in (0, 1)') ?? 0.5;
  const seed = readNumberOption('seed', values.seed, (v) => Number.isInteger(v) && v >= 0, 'a whole number') ?? 1;
  const policyOut = values['policy-out'];
  if (policyOut !== undefined && policyOut.trim() === '') throw new CliUsageError('--policy-out must not be empty');
  if (values.policy !== undefined && policyOut === undefined) throw new CliUsageError('--policy names the policy the rule is added to; it goes with --policy-out');
  let base: StopPolicyDocument = hookStopPolicy();
  if (values.policy !== undefined) {
    const loaded = await loadPolicyFile(values.policy, io.cwd);
    if (!loaded.ok) {
      io.stderr(`stopwise calibrate-stall: ${loaded.message}\n`);
      return 1;
    }
    if (!('document' in loaded)) {
      io.stderr(`stopwise calibrate-stall: ${values.policy}: --policy needs a stop policy document (an object with rules), not preset numbers\n`);
      return 1;
    }
    base = loaded.document;
  }

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
  /** Writes the policy with the calibrated rule; the note for the person, or undefined when it could not be written (said on stderr). */
  const writePolicy = async (stall: CalibratedStall, certified: boolean): Promise<string | undefined> => {
    if (policyOut === undefined) return '';
    const written = await writeOutputFile(policyOut, io.cwd, `${JSON.stringify(withStallRule(base, stall), null, 2)}\n`);
    if (!written.ok) {
      io.stderr(`stopwise calibrate-stall: ${policyOut}: ${written.message}\n`);
      return undefined;
    }
    return certified
      ? `policy written to ${policyOut} (a stop policy document for decide, runAgentLoop and the hook configuration)`
      : `${policyOut} written: nothing was certified, so its stall rule never holds`;
  };
  if (model === 'score') {
    const fitted = fitStallScore(runs.runs, { maxFalseAlarm, confidence, calibrationShare, seed });
    const note = await writePolicy({ model: fitted.model }, fitted.certified);
    if (note === undefined) return 1;
    if (values.json) {
      const json = { model: fitted.model, certified: fitted.certified, neededSuccessRuns: fitted.neededSuccessRuns, figures: { fit: fitted.fit, calibration: fitted.calibration } };
      io.stdout(`${JSON.stringify(json, null, 2)}\n`);
      if (note !== '') io.stderr(`stopwise calibrate-stall: ${note}\n`);
    } else io.stdout(`${renderScoreText(file, fitted, target)}${note === '' ? '' : `${note}\n`}`);
    return 0;
  }
  const calibration = calibrateStallDetector(runs.runs, { maxFalseAlarm, confidence });

  const notes: string[] = [];
  const policyNote = await writePolicy({ options: calibration.options }, calibration.certified);
  if (policyNote === undefined) return 1;
  if (policyNote !== '') notes.push(policyNote);
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

function renderScoreText(file: string, fitted: StallScoreFit, target: StallCalibrationTarget): string {
  const share = (part: number, whole: number): string => (whole === 0 ? '-' : formatPercent(part / whole));
  const { calibration } = fitted;
  const threshold = fitted.model.threshold;
  const verdict = threshold !== null
    ? `The score stops a run at ${threshold.toFixed(4)}: ${calibration.falseAlarms} of the ${calibration.successRuns} successful runs kept apart were stopped early, an upper bound of ${formatPercent(calibration.falseAlarmUpper)} at ${formatPercent(target.confidence)} confidence, within the ${formatPercent(target.maxFalseAlarm)} asked.`
    : `No threshold is certified: ${calibration.successRuns} successful runs were kept apart, and ${fitted.neededSuccessRuns} with no false alarm are needed for ${formatPercent(target.maxFalseAlarm)} at ${formatPercent(target.confidence)} confidence; the score never stops a run.`;
  const row = (name: string, f: StallScoreFigures): string[] => [
    name,
    `${f.wastedCaught} of ${f.wastedRuns} (${share(f.wastedCaught, f.wastedRuns)})`,
    share(f.wastedStepsSaved, f.wastedSteps),
    `${f.falseAlarms} of ${f.successRuns} (${share(f.falseAlarms, f.successRuns)})`,
    f.successRuns === 0 ? '-' : formatPercent(f.falseAlarmUpper),
  ];
  return `${[
    verdict,
    '',
    `${file}: the weights were fitted on ${fitted.fit.wastedRuns + fitted.fit.successRuns} runs; the threshold was chosen on the ${calibration.successRuns} successful runs of the other ${calibration.wastedRuns + calibration.successRuns}`,
    `verdict: ${fitted.certified ? 'CERTIFIED' : 'NOT CERTIFIED (never stops)'}`,
    '',
    formatTable(
      ['feature', 'weight'],
      Object.entries(fitted.model.weights).map(([name, weight]) => [name, weight.toFixed(3)]),
      ['left', 'right'],
    ),
    `bias ${fitted.model.bias.toFixed(3)}, window ${fitted.model.window}, threshold ${threshold === null ? 'none' : threshold.toFixed(4)}`,
    '',
    formatTable(
      ['runs', 'wasted runs stopped', 'wasted steps saved', 'successful runs stopped early', `upper bound (${formatPercent(target.confidence)})`],
      [row('fit (weights)', fitted.fit), row('kept apart (threshold)', calibration)],
      ['left', 'right', 'right', 'right', 'right'],
    ),
  ].join('\n')}\n`;
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
