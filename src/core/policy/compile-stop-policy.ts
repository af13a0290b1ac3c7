import type { StallFinding } from '../stall-detection/stall-finding.js';
import { STALL_SCORE_FEATURES, type StallOptionsInput, type StallScoreFeature, type StallScoreModel } from '../stall-detection/stall-options.js';
import type { StallPattern } from '../stall-detection/stall-pattern.js';
import { lowestCriterion, type CriterionProbabilities, type LowestCriterion } from '../criterion-probabilities.js';
import type { FinishSignal } from '../finish-signal.js';
import type { TestEvidence } from '../test-evidence.js';
import type { DecisionValue, UnmetCondition } from './stop-decision.js';
import type { StopEventHuman } from './stop-event.js';
import { parseStopPolicy } from './parse-stop-policy.js';
import type { CriteriaCondition, LimitName, RuleCondition, RuleOutcome, StopPolicyDocument } from './stop-policy-document.js';
import type { StopTotals } from './stop-state.js';

/** What the conditions read: the run so far and the event being decided. */
export interface EvaluationContext {
  readonly step: number;
  readonly totals: StopTotals;
  readonly elapsedMs: number;
  /** Newest last, the current event's fingerprint included. */
  readonly fingerprints: readonly string[];
  /** Retry decisions in a row before this event. */
  readonly retries: number;
  readonly tests: TestEvidence | undefined;
  readonly probabilities: CriterionProbabilities | undefined;
  readonly signal: FinishSignal | null | undefined;
  readonly verification: { readonly ok: boolean; readonly unmet?: readonly string[] } | undefined;
  readonly checks: Readonly<Record<string, boolean>> | undefined;
  readonly human: StopEventHuman | undefined;
  readonly tree: string | undefined;
  /** Why the event carries no probabilities (`decisionModel` of the event). */
  readonly decisionModel?: 'unavailable' | 'none' | undefined;
  /** What the provider said of the generation (`provider` of the event). */
  readonly provider?: 'token_limit' | 'step_limit' | 'failed' | undefined;
  /** The host says this step follows a retry of the driver's own. */
  readonly reentered?: boolean | undefined;
  readonly taskType?: string | undefined;
  /** What each `step_history` detector found on this event's steps, by slot. */
  readonly stallFindings?: readonly (readonly StallFinding[])[];
  /** What each `score` stall condition's score did on this event's steps, by slot. */
  readonly stallScores?: readonly StallScoreReading[];
}

/** A learned stall score over one event's steps: its highest score, and the last step that reached the threshold. */
export interface StallScoreReading {
  /** The highest score among the event's steps (`null` when the event had none). */
  readonly peak: number | null;
  /** The last of the event's steps whose score reached the threshold: its index in the run, its score and what drove it. */
  readonly hit?: { readonly step: number; readonly score: number; readonly features: Readonly<Record<StallScoreFeature, number>> };
}

/** Per-decision scratch: the part of the last condition that did not hold, and the lowest criterion once computed. */
export interface Scratch {
  unmet: UnmetCondition | undefined;
  lowest: LowestCriterion | undefined;
}

type Values = Record<string, DecisionValue>;

/**
 * One condition: `true` (it holds; when `values` is given, the values it read
 * are written there), `false` (`scratch.unmet` says which part did not hold),
 * or `undefined` when it cannot tell because the event carries no criterion
 * probabilities.
 */
export type Evaluator = (context: EvaluationContext, scratch: Scratch, values: Values | undefined) => boolean | undefined;

/** A policy ready to evaluate: its rules as functions, and how many fingerprints its stall rules need. */
export interface CompiledPolicy {
  readonly document: StopPolicyDocument;
  readonly rules: readonly { readonly id: string; readonly then: RuleOutcome; readonly evaluate: Evaluator }[];
  /** The longest `identical_fingerprints` window of the policy (0 when it has none). */
  readonly window: number;
  /** The options of each `step_history` stall condition, in document order: one detector state each. */
  readonly stepHistory: readonly (StallOptionsInput | undefined)[];
  /** The model of each `score` stall condition, in document order: one score state each. */
  readonly scoreModels: readonly StallScoreModel[];
}

const compiled = new WeakMap<object, CompiledPolicy>();

/**
 * Validates `policy` (as `parseStopPolicy` does) and compiles it, once per
 * policy object: a policy is treated as immutable once used.
 */
export function compileStopPolicy(policy: StopPolicyDocument): CompiledPolicy {
  const cached = compiled.get(policy as object);
  if (cached !== undefined) return cached;
  const document = parseStopPolicy(policy);
  const result = compileDocument(document);
  compiled.set(policy as object, result);
  compiled.set(document as object, result);
  return result;
}

/** Compiles a document that `parseStopPolicy` has already validated. */
export function compileDocument(document: StopPolicyDocument): CompiledPolicy {
  let window = 0;
  const stepHistory: (StallOptionsInput | undefined)[] = [];
  const scoreModels: StallScoreModel[] = [];
  const build = (condition: RuleCondition, path: string): Evaluator => {
    if ('stall' in condition) {
      const stall = condition.stall;
      if (stall.detector === 'step_history') return stepHistoryStall(stall.patterns, stepHistory.push(stall.options) - 1, `${path}stall.step_history`);
      if (stall.detector === 'score') return scoreStall(stall.model, scoreModels.push(stall.model) - 1, `${path}stall.score`);
      window = Math.max(window, stall.rounds);
    }
    return compileCondition(condition, path, build);
  };
  const rules = document.rules.map((rule) => ({ id: rule.id, then: rule.then, evaluate: build(rule.when, '') }));
  return { document, rules, window, stepHistory, scoreModels };
}

type Build = (condition: RuleCondition, path: string) => Evaluator;

function stepHistoryStall(patterns: readonly StallPattern[] | undefined, slot: number, label: string): Evaluator {
  const wanted = patterns === undefined ? undefined : new Set<string>(patterns);
  return (context, scratch, values) => {
    const findings = context.stallFindings?.[slot] ?? [];
    let found: StallFinding | undefined;
    for (let i = findings.length - 1; i >= 0 && found === undefined; i--) {
      const finding = findings[i] as StallFinding;
      if (wanted === undefined || wanted.has(finding.pattern)) found = finding;
    }
    if (found === undefined) return fail(scratch, label, findings.length === 0 ? 'no stall in the steps' : `only ${findings.map((f) => f.pattern).join(', ')}`, '');
    if (values !== undefined) {
      values.stallPattern = found.pattern;
      values.stallStep = found.step;
      values.stallSince = found.since;
      values.stallRepeats = found.repeats;
      values.stallMessage = found.message;
    }
    return true;
  };
}

/** What each feature of the stall score says, for the message of a stop on it. */
const FEATURE_WORDS: Readonly<Record<StallScoreFeature, string>> = {
  errorRate: 'failures',
  repeatedOutputs: 'repeated results',
  repeatedActions: 'repeated calls',
  nearDuplicateOutputs: 'nearly repeated results',
  sinceNewFile: 'no new file touched',
  revisitedSteps: 'steps taken before',
  sinceNewStep: 'no new step',
  ruleFinding: 'a repeat the rules see',
};

function scoreStall(model: StallScoreModel, slot: number, label: string): Evaluator {
  const threshold = model.threshold;
  const relation = threshold === null ? '(the model never stops: no certified threshold)' : `< ${threshold}`;
  return (context, scratch, values) => {
    const reading = context.stallScores?.[slot];
    const hit = reading?.hit;
    if (hit === undefined || threshold === null) return fail(scratch, label, reading?.peak ?? 'no steps', relation);
    if (values !== undefined) {
      // The two features that weighed most in the score, for the agent.
      const drivers = STALL_SCORE_FEATURES.map((name) => [name, model.weights[name] * hit.features[name]] as const)
        .filter(([, weight]) => weight > 0)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 2)
        .map(([name]) => FEATURE_WORDS[name]);
      values.stallScore = hit.score;
      values.stallThreshold = threshold;
      values.stallStep = hit.step;
      values.stallMessage =
        `The last ${model.window} steps look stalled (learned stall score ${hit.score.toFixed(2)}, at or above ${threshold.toFixed(2)}` +
        `${drivers.length === 0 ? '' : `: mostly ${drivers.join(' and ')}`}); change the approach or ask for help.`;
    }
    return true;
  };
}

function compileCondition(condition: RuleCondition, path: string, build: Build): Evaluator {
  if ('all' in condition) return allOf(condition.all.map((child, i) => build(child, `${path}all[${i}].`)));
  if ('any' in condition) return anyOf(condition.any.map((child, i) => build(child, `${path}any[${i}].`)), `${path}any`);
  if ('not' in condition) return negate(build(condition.not, `${path}not.`), `${path}not(${labelOf(condition.not)})`);
  if ('atLeast' in condition) {
    const { count, of } = condition.atLeast;
    return atLeastOf(count, of.map((child, i) => build(child, `${path}atLeast.of[${i}].`)), `${path}atLeast`);
  }
  if ('always' in condition) return () => true;
  const label = `${path}${labelOf(condition)}`;
  if ('limit' in condition) return limit(condition.limit.of, condition.limit.max, label);
  if ('tests' in condition) return testsIn(condition.tests, label);
  if ('check' in condition) return check(condition.check.name, condition.check.is, label);
  if ('criteria' in condition) return criteria(condition.criteria, label);
  if ('signal' in condition) {
    const want = condition.signal;
    const relation = `, not ${want}`;
    return (context, scratch, values) => {
      const kind = context.signal?.kind ?? 'none';
      if (kind !== want) return fail(scratch, label, kind, relation);
      if (values !== undefined) values.signal = kind;
      return true;
    };
  }
  if ('verification' in condition) {
    const want = condition.verification;
    return (context, scratch, values) => {
      const verification = context.verification;
      const state = verification === undefined ? 'nothing verified' : verification.ok ? 'passed' : 'failed';
      if (state !== want) return fail(scratch, label, state, `, not ${want}`);
      if (values !== undefined) {
        values.verified = state === 'passed';
        if (verification?.ok === false) values.unmet = [...(verification.unmet ?? [])];
      }
      return true;
    };
  }
  if ('human' in condition) {
    const want = condition.human;
    return (context, scratch, values) => {
      const human = context.human;
      const state = human === undefined ? 'not asked' : human.timedOut ? 'timed_out' : human.answer === undefined ? 'not answered' : 'answered';
      if (state !== want) return fail(scratch, label, state, `, not ${want}`);
      if (values !== undefined) values.human = state;
      return true;
    };
  }
  if ('stall' in condition && condition.stall.detector === 'identical_fingerprints') {
    const rounds = condition.stall.rounds;
    const relation = `of ${rounds} identical`;
    return (context, scratch, values) => {
      const fingerprints = context.fingerprints;
      const last = fingerprints[fingerprints.length - 1];
      let identical = 0;
      for (let i = fingerprints.length - 1; i >= 0 && identical < rounds && fingerprints[i] === last; i--) identical++;
      if (identical < rounds || last === undefined) return fail(scratch, label, identical, relation);
      if (values !== undefined) {
        values.stallRounds = rounds;
        values.fingerprint = last;
      }
      return true;
    };
  }
  if ('retries' in condition) {
    const least = condition.retries.atLeast;
    const relation = `< ${least}`;
    return (context, scratch, values) => {
      if (context.retries < least) return fail(scratch, label, context.retries, relation);
      if (values !== undefined) values.retries = context.retries;
      return true;
    };
  }
  if ('decisionModel' in condition) {
    const want = condition.decisionModel;
    return (context, scratch, values) => {
      const state = context.probabilities !== undefined ? 'answered' : (context.decisionModel ?? 'not asked');
      if (state !== want) return fail(scratch, label, state, `, not ${want}`);
      if (values !== undefined) values.decisionModel = state;
      return true;
    };
  }
  if ('provider' in condition) {
    const want = condition.provider;
    return (context, scratch, values) => {
      const state = context.provider ?? 'complete';
      if (state !== want) return fail(scratch, label, state, `, not ${want}`);
      if (values !== undefined) values.provider = state;
      return true;
    };
  }
  if ('reentered' in condition) {
    return (context, scratch, values) => {
      if (context.reentered !== true) return fail(scratch, label, 'not reentered', '');
      if (values !== undefined) values.reentered = true;
      return true;
    };
  }
  if ('taskType' in condition) {
    const want = condition.taskType;
    return (context, scratch, values) => {
      const taskType = context.taskType;
      if (taskType !== want) return fail(scratch, label, taskType ?? 'no task type', `, not ${want}`);
      if (values !== undefined) values.taskType = taskType;
      return true;
    };
  }
  throw new TypeError(`unknown condition ${JSON.stringify(condition)}`);
}

function fail(scratch: Scratch, condition: string, actual: DecisionValue, relation: string): false {
  scratch.unmet = { condition, actual, relation };
  return false;
}

function allOf(children: readonly Evaluator[]): Evaluator {
  return (context, scratch, values) => {
    let pending: UnmetCondition | undefined;
    for (const child of children) {
      const result = child(context, scratch, values);
      if (result === false) return false;
      if (result === undefined) pending ??= scratch.unmet;
    }
    if (pending === undefined) return true;
    scratch.unmet = pending;
    return undefined;
  };
}

function anyOf(children: readonly Evaluator[], label: string): Evaluator {
  return (context, scratch, values) => {
    let pending: UnmetCondition | undefined;
    const unmet: UnmetCondition[] = [];
    for (const child of children) {
      const own = values === undefined ? undefined : {};
      const result = child(context, scratch, own);
      if (result === true) {
        if (values !== undefined) Object.assign(values, own);
        return true;
      }
      if (result === undefined) pending ??= scratch.unmet;
      else if (scratch.unmet !== undefined) unmet.push(scratch.unmet);
    }
    if (pending !== undefined) {
      scratch.unmet = pending;
      return undefined;
    }
    return fail(scratch, label, unmet.map(formatUnmet).join('; ') || 'no conditions', unmet.length === 0 ? '' : '(none held)');
  };
}

function negate(child: Evaluator, label: string): Evaluator {
  return (context, scratch) => {
    const result = child(context, scratch, undefined);
    if (result === undefined) return undefined;
    return result ? fail(scratch, label, 'holds', '') : true;
  };
}

function atLeastOf(count: number, children: readonly Evaluator[], label: string): Evaluator {
  const relation = `of ${children.length} held, ${count} needed`;
  return (context, scratch, values) => {
    let held = 0;
    let unknown = 0;
    let pending: UnmetCondition | undefined;
    for (const child of children) {
      const own = values === undefined ? undefined : {};
      const result = child(context, scratch, own);
      if (result === true) {
        held++;
        if (values !== undefined) Object.assign(values, own);
        if (held >= count) return true;
      } else if (result === undefined) {
        unknown++;
        pending ??= scratch.unmet;
      }
    }
    if (pending !== undefined && held + unknown >= count) {
      scratch.unmet = pending;
      return undefined;
    }
    return fail(scratch, label, held, relation);
  };
}

/** A trace entry's unmet part as one line: `limit.steps: 14 < 20`. */
export function formatUnmet(unmet: UnmetCondition): string {
  const actual = Array.isArray(unmet.actual) ? `[${unmet.actual.join(', ')}]` : String(unmet.actual);
  const glue = unmet.relation === '' || unmet.relation.startsWith(',') ? '' : ' ';
  return `${unmet.condition}: ${actual}${glue}${unmet.relation}`;
}

const MAX_KEYS: Readonly<Record<LimitName, string>> = {
  steps: 'maxSteps',
  wallClockMs: 'maxWallClockMs',
  inputTokens: 'maxInputTokens',
  outputTokens: 'maxOutputTokens',
  totalTokens: 'maxTotalTokens',
  cost: 'maxCost',
  toolErrors: 'maxToolErrors',
  decisionModelCalls: 'maxDecisionModelCalls',
  decisionModelCost: 'maxDecisionModelCost',
};

function limit(of: LimitName, max: number, label: string): Evaluator {
  const maxKey = MAX_KEYS[of];
  const relation = `< ${max}`;
  const read = (context: EvaluationContext): number => {
    switch (of) {
      case 'steps':
        return context.step;
      case 'wallClockMs':
        return context.elapsedMs;
      case 'totalTokens':
        return context.totals.inputTokens + context.totals.outputTokens;
      default:
        return context.totals[of];
    }
  };
  return (context, scratch, values) => {
    const used = read(context);
    if (used < max) return fail(scratch, label, used, relation);
    if (values !== undefined) {
      values[of] = used;
      values[maxKey] = max;
    }
    return true;
  };
}

function testsIn(state: Extract<RuleCondition, { tests: unknown }>['tests'], label: string): Evaluator {
  switch (state) {
    case 'no_tests_ran':
      return (context, scratch, values) => {
        const ran = context.tests?.ran ?? 0;
        if (ran !== 0) return fail(scratch, label, ran, 'ran');
        if (values !== undefined) values.ran = 0;
        return true;
      };
    case 'failed':
      return (context, scratch, values) => {
        const tests = context.tests;
        if (tests === undefined || tests.ran === 0) return fail(scratch, label, 'no tests ran', '');
        if (tests.passed && tests.failed.length === 0) return fail(scratch, label, tests.ran, 'ran, none failed');
        if (values !== undefined) {
          values.ran = tests.ran;
          values.failed = [...tests.failed];
        }
        return true;
      };
    case 'passed':
      return (context, scratch, values) => {
        const tests = context.tests;
        if (tests === undefined || tests.ran === 0) return fail(scratch, label, 'no tests ran', '');
        if (!tests.passed || tests.failed.length > 0) return fail(scratch, label, tests.ran, `ran, ${tests.failed.length} named failed`);
        if (values !== undefined) values.ran = tests.ran;
        return true;
      };
    case 'fresh':
    case 'stale':
      return (context, scratch, values) => {
        // Evidence is fresh only when it is shown to be taken on the tree the event names; anything else is stale,
        // so `not stale` can never stand for freshness nobody established.
        const tests = context.tests;
        const tree = context.tree;
        const why = tree === undefined ? 'no tree fingerprint in the event' : tests === undefined ? 'no test evidence' : tests.treeFingerprint === tree ? 'fresh' : 'stale';
        if ((why === 'fresh') !== (state === 'fresh')) return fail(scratch, label, why, state === 'fresh' ? ', not fresh' : ', not stale');
        if (values !== undefined) {
          values.treeFingerprint = tree ?? null;
          values.testsTreeFingerprint = tests?.treeFingerprint ?? null;
        }
        return true;
      };
  }
}

function check(name: string, is: 'passed' | 'failed' | 'missing', label: string): Evaluator {
  const key = `check.${name}`;
  const relation = `, not ${is}`;
  return (context, scratch, values) => {
    const checks = context.checks;
    const passed = checks !== undefined && Object.hasOwn(checks, name) ? checks[name] : undefined;
    const state = passed === undefined ? 'missing' : passed ? 'passed' : 'failed';
    if (state !== is) return fail(scratch, label, state, relation);
    if (values !== undefined) values[key] = state;
    return true;
  };
}

function criteria(spec: CriteriaCondition, label: string): Evaluator {
  const pendingUnmet: UnmetCondition = { condition: label, actual: 'no criterion probabilities in the event', relation: '' };
  const named = spec.criterion;
  const valueKey = named === undefined ? 'lowestProbability' : `criteria.${named}`;
  const { gte, lt, within } = spec;
  const relation = gte !== undefined ? `< ${gte}` : lt !== undefined ? `>= ${lt}` : `not in [${(within as readonly [number, number])[0]}, ${(within as readonly [number, number])[1]})`;
  return (context, scratch, values) => {
    const probabilities = context.probabilities;
    if (probabilities === undefined) {
      // A model that could not answer, or none at all: no answer is coming, so the condition does not hold.
      if (context.decisionModel !== undefined) return fail(scratch, label, `decision model ${context.decisionModel === 'none' ? 'not asked' : 'unavailable'}`, '');
      scratch.unmet = pendingUnmet;
      return undefined;
    }
    let probability: number;
    if (named === undefined) {
      const lowest = (scratch.lowest ??= lowestCriterion(probabilities));
      probability = lowest.probability;
      if (values !== undefined && lowest.criterion !== undefined) values.lowestCriterion = lowest.criterion;
    } else {
      const value = Object.hasOwn(probabilities, named) ? probabilities[named] : undefined;
      if (value === undefined) {
        // Not an answer: `not` must not turn it into one. The rules cannot decide until the model answers it.
        scratch.unmet = { condition: label, actual: 'not answered', relation: '' };
        return undefined;
      }
      probability = value;
    }
    const holds = gte !== undefined ? probability >= gte : lt !== undefined ? probability < lt : probability >= (within as readonly [number, number])[0] && probability < (within as readonly [number, number])[1];
    if (!holds) return fail(scratch, label, probability, relation);
    if (values !== undefined) {
      values[valueKey] = probability;
      if (gte !== undefined) values.minProbability = gte;
      else if (lt !== undefined) values.belowProbability = lt;
      else values.band = [(within as readonly [number, number])[0], (within as readonly [number, number])[1]];
    }
    return true;
  };
}

/** A short name for a condition, as the trace shows it. */
export function labelOf(condition: RuleCondition): string {
  if ('limit' in condition) return `limit.${condition.limit.of}`;
  if ('tests' in condition) return `tests.${condition.tests}`;
  if ('check' in condition) return `check.${condition.check.name}`;
  if ('criteria' in condition) return condition.criteria.criterion === undefined ? 'criteria.lowest' : `criteria.${condition.criteria.criterion}`;
  if ('signal' in condition) return `signal.${condition.signal}`;
  if ('verification' in condition) return `verification.${condition.verification}`;
  if ('human' in condition) return `human.${condition.human}`;
  if ('stall' in condition) return condition.stall.detector === 'identical_fingerprints' ? 'stall.identical' : `stall.${condition.stall.detector}`;
  if ('retries' in condition) return 'retries';
  if ('decisionModel' in condition) return `decisionModel.${condition.decisionModel}`;
  if ('provider' in condition) return `provider.${condition.provider}`;
  if ('reentered' in condition) return 'reentered';
  if ('taskType' in condition) return `taskType.${condition.taskType}`;
  return Object.keys(condition)[0] ?? 'condition';
}
