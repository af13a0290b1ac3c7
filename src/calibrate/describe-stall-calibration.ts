import { countNoun } from '../core/count-noun.js';
import { STALL_OPTION_PATTERN_KEYS, type StallOptions } from '../core/stall-detection/stall-options.js';
import type { StallPattern } from '../core/stall-detection/stall-pattern.js';
import { formatPercent } from './calibrate-thresholds.js';
import type { StallCalibration } from './calibrate-stall-detector.js';

/** What a stall calibration was asked for: the target share of successful runs stopped early, and the confidence of its bound. */
export interface StallCalibrationTarget {
  readonly maxFalseAlarm: number;
  readonly confidence: number;
}

/** One pattern's option as chosen: its option key, the setting (`off` or its numbers) and what it stops, in words. */
export interface StallOptionRow {
  readonly key: StallOptionKey;
  readonly setting: string;
  readonly meaning: string;
}

/** The option keys of the patterns, in the order a step's findings are reported. */
export type StallOptionKey = (typeof STALL_OPTION_PATTERN_KEYS)[number];

const OPTION_KEYS: readonly StallOptionKey[] = STALL_OPTION_PATTERN_KEYS;

/** The option that governs each pattern a finding can name. */
export const PATTERN_OPTION: Readonly<Record<StallPattern, StallOptionKey>> = {
  'repeated-result': 'repeatedResult',
  'repeated-failing-call': 'repeatedFailingCall',
  'repeated-error': 'repeatedError',
  cycle: 'cycle',
  revisit: 'revisit',
  'repeated-pair': 'repeatedPair',
  'no-progress': 'noProgress',
  monologue: 'monologue',
  'repeated-call': 'repeatedCall',
  'infrastructure-errors': 'repeatedError',
};

/** Each pattern's option in words: the setting and what the pattern then stops. */
export function describeStallOptions(options: StallOptions): StallOptionRow[] {
  return OPTION_KEYS.map((key) => ({ key, ...describeOption(options, key) }));
}

function describeOption(options: StallOptions, key: StallOptionKey): { setting: string; meaning: string } {
  switch (key) {
    case 'repeatedResult': {
      const o = options.repeatedResult;
      return o === false
        ? off()
        : {
            setting: `repeats ${o.repeats}, failingRepeats ${o.failingRepeats}, pollingRepeats ${o.pollingRepeats}`,
            meaning: `the same call with the same result ${o.repeats} times in a row (the same failure ${o.failingRepeats} times, a polling call ${o.pollingRepeats} times)`,
          };
    }
    case 'repeatedFailingCall': {
      const o = options.repeatedFailingCall;
      return o === false ? off() : { setting: `repeats ${o.repeats}`, meaning: `the same call failing ${o.repeats} times in a row, whatever the errors say` };
    }
    case 'repeatedError': {
      const o = options.repeatedError;
      return o === false
        ? off()
        : {
            setting: `repeats ${o.repeats}, infrastructureRepeats ${o.infrastructureRepeats}`,
            meaning: `${o.repeats} failed steps in a row ending in the same error (${o.infrastructureRepeats} for infrastructure errors such as timeouts and rate limits)`,
          };
    }
    case 'cycle': {
      const o = options.cycle;
      return o === false
        ? off()
        : { setting: `maxPeriod ${o.maxPeriod}, repeats ${o.repeats}`, meaning: `a cycle of 2 to ${o.maxPeriod} steps, with the same results, gone round ${o.repeats} times` };
    }
    case 'revisit': {
      const o = options.revisit;
      return o === false
        ? off()
        : {
            setting: `repeats ${o.repeats}, window ${o.window}`,
            meaning: `${o.repeats} steps in a row that each repeat one of the last ${o.window} distinct steps and get the same result`,
          };
    }
    case 'repeatedPair': {
      const o = options.repeatedPair;
      return o === false
        ? off()
        : {
            setting: `repeats ${o.repeats}, window ${o.window}`,
            meaning: `the same call with the same result ${o.repeats} times among the last ${o.window} steps, in a row or not`,
          };
    }
    case 'noProgress': {
      const o = options.noProgress;
      return o === false
        ? off()
        : {
            setting: `repeats ${o.repeats}, window ${o.window}${o.nothingNew ? ', nothingNew' : ''}`,
            meaning: `a failing check run ${o.repeats} times, with other steps between${o.nothingNew ? ' that gave nothing new' : ''}, and the same result each time; or the same failing tests ${o.repeats} times in a row`,
          };
    }
    case 'monologue': {
      const o = options.monologue;
      return o === false ? off() : { setting: `repeats ${o.repeats}`, meaning: `${o.repeats} messages in a row with no tool call and no reply` };
    }
    case 'repeatedCall': {
      const o = options.repeatedCall;
      return o === false ? off() : { setting: `repeats ${o.repeats}`, meaning: `the same call ${o.repeats} times in a row, whatever it returned` };
    }
  }
}

function off(): { setting: string; meaning: string } {
  return { setting: 'off', meaning: 'never fires' };
}

/**
 * The fewest successful runs for which a detector that never fires can meet
 * the target: below it, even zero false alarms leave a Clopper–Pearson upper
 * bound above `maxFalseAlarm`.
 */
export function minimumSuccessRuns(target: StallCalibrationTarget): number {
  return Math.ceil(Math.log(1 - target.confidence) / Math.log(1 - target.maxFalseAlarm));
}

/**
 * The three sentences a stall calibration is summed up in: what was chosen,
 * the false-alarm figure with its bound (and why it is not a guarantee about
 * new runs without a check), and what it catches.
 */
export function stallCalibrationSentences(calibration: StallCalibration, target: StallCalibrationTarget): [string, string, string] {
  const { figures } = calibration;
  const goal = formatPercent(target.maxFalseAlarm);
  const confidence = formatPercent(target.confidence);
  const on = describeStallOptions(calibration.options).filter((row) => row.setting !== 'off');
  if (!calibration.certified) {
    const needed = minimumSuccessRuns(target);
    return [
      'No options could be chosen: every pattern is off, so do not stop runs on these patterns yet.',
      figures.successRuns < needed
        ? `Nothing is guaranteed: with ${countNoun(figures.successRuns, 'successful run')}, even a detector that never fires has an upper bound of ${formatPercent(figures.falseAlarmUpper)} (${confidence} confidence) on the share of successful runs it stops, above the ${goal} target; at least ${needed} successful runs are needed.`
        : `Nothing is guaranteed: no setting keeps the upper bound (${confidence} confidence) on the share of successful runs stopped before their end at or below ${goal} on these runs.`,
      `Of ${countNoun(figures.wastedRuns, 'wasted run')}, none is stopped.`,
    ];
  }
  const chosen =
    on.length === 0
      ? 'No options chosen: every pattern is off, because none stops a wasted run here without stopping too many successful ones.'
      : `Options chosen: stop a run on ${on.map((row) => row.meaning).join('; ')}${on.length < OPTION_KEYS.length ? `; the ${countNoun(OPTION_KEYS.length - on.length, 'other pattern')} ${OPTION_KEYS.length - on.length === 1 ? 'is' : 'are'} off` : ''}.`;
  const guarantee = `On these runs they stop ${figures.falseAlarms} of ${countNoun(figures.successRuns, 'successful run')} before their end: at most ${formatPercent(figures.falseAlarmUpper)} of successful runs like these, with ${confidence} confidence, within the ${goal} target; the options were chosen on these same runs, so check them on runs they were not chosen on.`;
  const caught =
    figures.wastedRuns === 0
      ? 'The file holds no wasted runs, so nothing shows what a stop would save.'
      : `They stop ${figures.wastedCaught} of ${countNoun(figures.wastedRuns, 'wasted run')} (${formatPercent(figures.wastedCaught / figures.wastedRuns)}) and save ${figures.wastedStepsSaved} of their ${countNoun(figures.wastedSteps, 'step')} (${formatPercent(figures.wastedSteps === 0 ? 0 : figures.wastedStepsSaved / figures.wastedSteps)}).`;
  return [chosen, guarantee, caught];
}

