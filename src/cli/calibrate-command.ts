import { calibratedStopPolicy } from '../calibrate/calibrated-stop-policy.js';
import { resolve } from 'node:path';
import { calibrateThresholds, calibrationVerdict, formatPercent, uncertifiedReason, VERDICT_CELL, type CalibrationResult } from '../calibrate/calibrate-thresholds.js';
import { brierScore, expectedCalibrationError, reliabilityBins } from '../calibrate/calibration-metrics.js';
import { renderCalibrationReport } from '../calibrate/calibration-report-html.js';
import { formatLabelledCaseError, isScoredCase, parseLabelledCases, type ScoredCase } from '../calibrate/labelled-case.js';
import type { RiskKind } from '../calibrate/learn-then-test.js';
import { DECISION_MODEL_CLIENTS, type DecisionModelClientName } from '../decision-model/decision-model-clients.js';
import { CliUsageError, type CliIo } from './cli-io.js';
import { formatTable } from './format-table.js';
import type { LiveScoringSettings, LiveScoringSummary } from './live-scoring.js';
import { parseCommandLine } from './parse-command-line.js';
import { readTextFile } from './read-inputs.js';
import { readNumberOption } from './read-number-option.js';
import { writeOutputFile } from './write-output-file.js';
import { countNoun } from '../core/count-noun.js';

const HELP = `usage: stopwise calibrate CASES.jsonl [options]

Chooses the done threshold and the retry band from human-labelled cases, with
a guarantee: with probability at least 1 - delta, the policy stops at most
alpha of all cases as done while a person would judge them not done.
Thresholds are certified on one part of the cases and confirmed on the rest.

options:
  --alpha A             the false-done rate to guarantee (default 0.05)
  --delta D             allowed chance that the guarantee fails (default 0.1)
  --holdout H           share of cases kept back to confirm (default 0.3; 0 skips)
  --seed N              seed of the split (default 0); fix it before looking
  --risk joint|conditional
                        joint (default): false dones over all cases;
                        conditional: one minus precision
  --max-false-handoff F target for really-done cases handed to a person (default 0.1)
  --policy-out FILE     write the calibrated policy as a stop policy document
                        (for replay --policy, the hook configuration and decide)
  --html FILE           write a self-contained HTML report with charts
  --json                print the result as JSON
  -h, --help            show this help

scoring with a decision model (for cases with task and output but no probabilities):
  --live                score those cases first, then calibrate
  --client system-one|openai-compatible
                        the decision model: system-one reads SYSTEM_ONE_API_KEY,
                        SYSTEM_ONE_BASE_URL and SYSTEM_ONE_MODEL; openai-compatible
                        needs --base-url and --model (the key is optional)
  --base-url URL        the API root (overrides SYSTEM_ONE_BASE_URL)
  --model NAME          the model to ask (overrides SYSTEM_ONE_MODEL)
  --api-key-env VAR     the environment variable holding the key (default
                        SYSTEM_ONE_API_KEY, or OPENAI_API_KEY for openai-compatible)
  --timeout-ms N        time allowed per attempt (default 30000)
  --concurrency N       cases asked at once (default 4)
  --cache FILE          where answers are kept so an interrupted run resumes
                        (default CASES.jsonl.scores.jsonl)

Each line of CASES.jsonl is one case:
  {"probabilities": {"acceptanceCovered": 0.91}, "tests": {"passed": true, "failed": [], "ran": 12},
   "label": "done", "taskType": "bugfix", "id": "case-1"}
or, to be scored with --live:
  {"task": "...", "acceptance": ["..."], "output": "...", "tests": {...}, "label": "not_done"}

exit codes: 0 calibrated (certified or not); 1 a file or line could not be read, the
decision model is not configured, or cases could not be scored (nothing is calibrated
then); 2 usage error; 130 interrupted (the answers so far stay cached)`;

/** `stopwise calibrate`: chooses stop thresholds from labelled cases, with a guarantee. */
export async function calibrateCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(
    argv,
    {
      alpha: { type: 'string' },
      delta: { type: 'string' },
      holdout: { type: 'string' },
      seed: { type: 'string' },
      risk: { type: 'string' },
      'max-false-handoff': { type: 'string' },
      'policy-out': { type: 'string' },
      html: { type: 'string' },
      json: { type: 'boolean', default: false },
      live: { type: 'boolean', default: false },
      client: { type: 'string' },
      'base-url': { type: 'string' },
      model: { type: 'string' },
      'api-key-env': { type: 'string' },
      'timeout-ms': { type: 'string' },
      concurrency: { type: 'string' },
      cache: { type: 'string' },
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
    throw new CliUsageError(`expected one file of labelled cases, got ${parsed.positionals.length}\n\n${HELP}`);
  }
  const file = parsed.positionals[0] as string;
  const alpha = readNumberOption('alpha', values.alpha, (v) => v > 0 && v < 1, 'a number in (0, 1)');
  const delta = readNumberOption('delta', values.delta, (v) => v > 0 && v < 1, 'a number in (0, 1)');
  const holdout = readNumberOption('holdout', values.holdout, (v) => v >= 0 && v < 1, 'a number in [0, 1)');
  const seed = readNumberOption('seed', values.seed, (v) => Number.isSafeInteger(v), 'an integer');
  const maxFalseHandoff = readNumberOption('max-false-handoff', values['max-false-handoff'], (v) => v > 0 && v <= 1, 'a number in (0, 1]');
  if (values.risk !== undefined && values.risk !== 'joint' && values.risk !== 'conditional') {
    throw new CliUsageError(`--risk must be joint or conditional, got "${values.risk}"`);
  }
  const risk = values.risk as RiskKind | undefined;
  const live = readLiveOptions(values, file, io.cwd);

  const read = await readTextFile(file, io.cwd);
  if (!read.ok) {
    io.stderr(`stopwise calibrate: ${file}: ${read.message}\n`);
    return 1;
  }
  const casesRead = parseLabelledCases(read.text, file);
  if (!casesRead.ok) {
    io.stderr(`stopwise calibrate: ${formatLabelledCaseError(casesRead.error)}\n`);
    return 1;
  }
  let cases: readonly ScoredCase[];
  let scoring: LiveScoringSummary | undefined;
  const unscored = casesRead.cases.flatMap((labelled, index) => (isScoredCase(labelled) ? [] : [casesRead.lines[index]]));
  if (unscored.length === 0) {
    if (live !== undefined) io.stderr(`stopwise calibrate: every case carries probabilities; nothing to score\n`);
    cases = casesRead.cases as readonly ScoredCase[];
  } else if (live === undefined) {
    io.stderr(
      `stopwise calibrate: ${file}:${unscored[0]}: probabilities: ${unscored.length} case${unscored.length === 1 ? ' has' : 's have'} no probabilities (${unscored.length === 1 ? 'line' : 'lines'} ${unscored.slice(0, 5).join(', ')}${unscored.length > 5 ? ', ...' : ''}); score them with a decision model first: add --live --client system-one|openai-compatible\n`,
    );
    return 1;
  } else {
    const { scoreCasesLive } = await import('./live-scoring.js');
    const scored = await scoreCasesLive(file, casesRead.cases, casesRead.lines, live, io);
    if (!scored.ok) return scored.code;
    cases = scored.cases;
    scoring = scored.summary;
  }
  const result = calibrateThresholds(cases, {
    ...(alpha === undefined ? {} : { alpha }),
    ...(delta === undefined ? {} : { delta }),
    ...(holdout === undefined ? {} : { holdout }),
    ...(seed === undefined ? {} : { seed }),
    ...(risk === undefined ? {} : { risk }),
    ...(maxFalseHandoff === undefined ? {} : { maxFalseHandoff }),
  });
  const bins = reliabilityBins(cases, 15);
  const metrics = { brier: brierScore(cases), ece: expectedCalibrationError(cases, 15), bins };

  const notes: string[] = [];
  if (values['policy-out'] !== undefined) {
    const written = await writeOutputFile(values['policy-out'], io.cwd, `${JSON.stringify(calibratedStopPolicy(result), null, 2)}
`);
    if (!written.ok) {
      io.stderr(`stopwise calibrate: ${values['policy-out']}: ${written.message}\n`);
      return 1;
    }
    notes.push(
      result.thresholds === null
        ? `${values['policy-out']} written: nothing was certified, so its rules never stop a run as done (passing tests hand off to a person, not_certified)`
        : `policy written to ${values['policy-out']} (a stop policy document for replay --policy, the hook configuration and decide)`,
    );
  }
  if (values.html !== undefined) {
    const html = renderCalibrationReport({ result, bins, brier: metrics.brier, ece: metrics.ece, source: file });
    const written = await writeOutputFile(values.html, io.cwd, html);
    if (!written.ok) {
      io.stderr(`stopwise calibrate: ${values.html}: ${written.message}\n`);
      return 1;
    }
    notes.push(`report written to ${values.html}`);
  }

  if (values.json) {
    io.stdout(`${JSON.stringify({ source: file, ...(scoring === undefined ? {} : { scoring }), result, metrics }, null, 2)}\n`);
    for (const note of notes) io.stderr(`stopwise calibrate: ${note}\n`);
  } else {
    io.stdout(renderText(file, result, metrics));
    for (const note of notes) io.stdout(`${note}\n`);
  }
  return 0;
}

const LIVE_ONLY = ['client', 'base-url', 'model', 'api-key-env', 'timeout-ms', 'concurrency', 'cache'] as const;

function readLiveOptions(
  values: { readonly live?: boolean | undefined } & Partial<Record<(typeof LIVE_ONLY)[number], string | boolean | undefined>>,
  file: string,
  cwd: string,
): LiveScoringSettings | undefined {
  if (values.live !== true) {
    const given = LIVE_ONLY.find((name) => values[name] !== undefined);
    if (given !== undefined) throw new CliUsageError(`--${given} only applies with --live`);
    return undefined;
  }
  const client = values.client;
  if (client === undefined) throw new CliUsageError(`--live needs --client ${DECISION_MODEL_CLIENTS.join('|')}`);
  if (typeof client !== 'string' || !(DECISION_MODEL_CLIENTS as readonly string[]).includes(client)) {
    throw new CliUsageError(`--client must be ${DECISION_MODEL_CLIENTS.join(' or ')}, got "${String(client)}"`);
  }
  const text = (name: 'base-url' | 'model' | 'api-key-env' | 'cache'): string | undefined => {
    const value = values[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value.trim() === '') throw new CliUsageError(`--${name} must not be empty`);
    return value;
  };
  const timeoutMs = readNumberOption('timeout-ms', values['timeout-ms'] as string | undefined, (v) => v > 0, 'a positive number of milliseconds');
  const concurrency = readNumberOption(
    'concurrency',
    values.concurrency as string | undefined,
    (v) => Number.isInteger(v) && v >= 1 && v <= 256,
    'an integer from 1 to 256',
  );
  const baseURL = text('base-url');
  const model = text('model');
  const apiKeyEnv = text('api-key-env');
  const cache = text('cache') ?? `${file}.scores.jsonl`;
  return {
    config: {
      client: client as DecisionModelClientName,
      ...(baseURL === undefined ? {} : { baseURL }),
      ...(model === undefined ? {} : { model }),
      ...(apiKeyEnv === undefined ? {} : { apiKeyEnv }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    },
    concurrency: concurrency ?? 4,
    cache: { shown: cache, path: resolve(cwd, cache) },
  };
}


function renderText(
  file: string,
  result: CalibrationResult,
  metrics: { brier: number; ece: number },
): string {
  const { settings, cases } = result;
  const rate = (value: number | null): string => (value === null ? '-' : formatPercent(value));
  const out: string[] = [
    ...plainSummary(result),
    '',
    `${file}: ${cases.total} cases (${cases.done} done, ${cases.notDone} not done); ${cases.calibration} to calibrate, ${cases.holdout} held out (seed ${settings.seed})`,
    `target: ${settings.risk === 'joint' ? 'false dones over all cases' : 'not-done share of the stopped cases'} <= ${formatPercent(settings.alpha)} with confidence ${formatPercent(1 - settings.delta)}; false hand-offs <= ${formatPercent(settings.maxFalseHandoff)}`,
    '',
  ];
  const verdict = calibrationVerdict(result);
  if (result.thresholds === null || verdict === 'not_certified') {
    out.push(`verdict: NOT CERTIFIED (${uncertifiedReason(result, settings.alpha) ?? ''})`);
  } else {
    const notes = [
      ...(verdict === 'not_confirmed' && result.heldOut !== null
        ? [`certified on the calibration cases; the held-out upper bound ${formatPercent(result.heldOut.falseDoneUpper)} is above the ${formatPercent(settings.alpha)} target`]
        : []),
      ...(result.midBand?.certified === false ? ['false hand-off target not certified'] : []),
    ];
    out.push(
      `verdict: ${verdict === 'confirmed' ? 'CERTIFIED' : 'NOT CONFIRMED'}  doneThreshold ${result.thresholds.doneThreshold}  midBandLow ${result.thresholds.midBandLow}${notes.length === 0 ? '' : ` (${notes.join('; ')})`}`,
    );
  }
  out.push(`guarantee: ${result.guarantee}`, `recommendation: ${result.recommendation}`);
  for (const warning of result.warnings) out.push(`warning: ${warning}`);
  const tests = result.doneThreshold.tests;
  const failed = tests.find((test) => !test.passed);
  out.push(
    '',
    `threshold walk: ${tests.length} tested from ${tests[0]?.threshold ?? '-'} down${failed === undefined ? '; the grid ran out' : `; stopped at ${failed.threshold} (${countNoun(failed.falseDones, 'false done')} of ${failed.n}, p = ${failed.pValue.toPrecision(3)} > ${settings.delta})`}`,
    `  p: how likely so few false dones would be if the true rate were above ${formatPercent(settings.alpha)}; a threshold passes while p <= ${settings.delta} (delta)`,
  );

  const cal = result.calibrationEvaluation;
  if (cal !== null) {
    const held = result.heldOut;
    const h = held?.evaluation;
    const conf = held === null ? '' : formatPercent(held.confidence);
    out.push('');
    out.push(
      formatTable(
        ['', 'calibration', 'held out', held === null ? '' : `held-out upper (${conf})`],
        [
          ['cases', String(cal.cases), h === undefined ? '-' : String(h.cases), ''],
          [
            'false dones',
            `${cal.falseDones} (${rate(cal.falseDoneRate)})`,
            h === undefined ? '-' : `${h.falseDones} (${rate(h.falseDoneRate)})`,
            held === null ? '' : formatPercent(held.falseDoneUpper),
          ],
          [
            'false hand-offs',
            `${cal.falseHandoffs} (${rate(cal.falseHandoffRate)})`,
            h === undefined ? '-' : `${h.falseHandoffs} (${rate(h.falseHandoffRate)})`,
            held === null ? '' : formatPercent(held.falseHandoffUpper),
          ],
          ['precision', rate(cal.precision), rate(h?.precision ?? null), ''],
          ['coverage', rate(cal.coverage), rate(h?.coverage ?? null), ''],
          ['stopped as done', rate(cal.doneShare), rate(h?.doneShare ?? null), ''],
          ['retry share', rate(cal.retryShare), rate(h?.retryShare ?? null), ''],
        ],
        ['left', 'right', 'right', 'right'],
      ),
    );
  }
  out.push(
    '',
    `calibration of the scores (all cases): Brier ${metrics.brier.toFixed(4)}, ECE (15 bins) ${metrics.ece.toFixed(4)}`,
    '  Brier: the mean squared gap between score and label (0 is perfect, 0.25 is a coin toss)',
    '  ECE: the mean gap between the score and the share really done, over 15 bins of the score (0 is perfectly calibrated)',
  );

  const groups = Object.entries(result.byTaskType);
  if (groups.length > 0) {
    out.push('', 'per task type:');
    out.push(
      formatTable(
        ['task type', 'cases', 'certified', 'doneThreshold', 'midBandLow', 'held-out false dones'],
        groups.map(([name, group]) => [
          name,
          String(group.cases.total),
          certifiedCell(group),
          group.thresholds === null ? '-' : String(group.thresholds.doneThreshold),
          group.thresholds === null ? '-' : String(group.thresholds.midBandLow),
          group.heldOut === null
            ? '-'
            : `${group.heldOut.falseDones}/${group.heldOut.falseDoneBase} (upper ${formatPercent(group.heldOut.falseDoneUpper)})`,
        ]),
        ['left', 'right', 'left', 'right', 'right', 'right'],
      ),
    );
    for (const [name, group] of groups) {
      if (!group.certified) out.push(`${name}: ${group.recommendation}`);
      else if (group.heldOut !== null && !group.heldOut.falseDoneWithinAlpha) {
        out.push(
          `${name}: not confirmed: certified on its calibration cases, but its held-out upper bound ${formatPercent(group.heldOut.falseDoneUpper)} is above the ${formatPercent(settings.alpha)} target`,
        );
      }
    }
  }
  return `${out.join('\n')}\n`;
}

/** "yes" only when nothing contradicts it: a certified group whose held-out bound is above the target says so. */
function certifiedCell(group: CalibrationResult['byTaskType'][string]): string {
  return VERDICT_CELL[calibrationVerdict(group)];
}

/** The three sentences the text output starts with: the threshold, the guarantee in words, the held-out check. */
function plainSummary(result: CalibrationResult): string[] {
  const { settings, thresholds: policy, heldOut } = result;
  const target = formatPercent(settings.alpha);
  const confidence = formatPercent(1 - settings.delta);
  if (policy === null || !result.certified) {
    return [
      "No threshold could be chosen: these cases do not show that any is safe, so never stop on the decision model's word alone.",
      `Nothing is guaranteed: no threshold keeps false stops at or below ${target} of ${settings.risk === 'joint' ? 'all cases' : 'the stops'} with ${confidence} confidence on ${result.cases.calibration === 1 ? 'this case' : `these ${result.cases.calibration} cases`}.`,
      result.cases.holdout === 0 ? 'No cases were held out.' : `The ${countNoun(result.cases.holdout, 'held-out case')} ${result.cases.holdout === 1 ? 'has' : 'have'} no threshold to check.`,
    ];
  }
  const band =
    policy.midBandLow > 0 && policy.midBandLow < policy.doneThreshold
      ? `; between ${policy.midBandLow} and ${policy.doneThreshold} ask the agent to retry, below ${policy.midBandLow} hand the run to a person`
      : '; below it, hand the run to a person';
  const which =
    settings.risk === 'joint'
      ? 'of all cases are stopped as done while a person would judge them not done'
      : 'of the cases stopped as done are not done';
  let check: string;
  if (heldOut === null) {
    check = 'No cases were held out, so nothing checks the threshold on cases it was not chosen on.';
  } else {
    const seen = `${heldOut.falseDones} false stop${heldOut.falseDones === 1 ? '' : 's'} of ${heldOut.falseDoneBase}`;
    check = heldOut.falseDoneWithinAlpha
      ? `The ${countNoun(result.cases.holdout, 'held-out case')} ${result.cases.holdout === 1 ? 'agrees' : 'agree'}: ${seen}, at most ${formatPercent(heldOut.falseDoneUpper)} with ${formatPercent(heldOut.confidence)} confidence, within the ${target} target.`
      : `The ${countNoun(result.cases.holdout, 'held-out case')} ${result.cases.holdout === 1 ? 'does' : 'do'} not confirm it: ${seen}, and their upper bound of ${formatPercent(heldOut.falseDoneUpper)} (${formatPercent(heldOut.confidence)} confidence) is above the ${target} target.`;
  }
  return [
    `Threshold chosen: stop as done when the tests pass and every criterion scores at least ${policy.doneThreshold}${band}.`,
    `It guarantees that at most ${target} ${which}, with ${confidence} confidence, if new cases are like these.`,
    check,
  ];
}
