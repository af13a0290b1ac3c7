import { decide, initialStopState } from '../core/policy/decide.js';
import { compileStopPolicy } from '../core/policy/compile-stop-policy.js';
import type { StopDecision } from '../core/policy/stop-decision.js';
import type { CriteriaCondition, RuleCondition, StopPolicyDocument, StopRule } from '../core/policy/stop-policy-document.js';
import type { TestEvidence } from '../core/test-evidence.js';
import { assertProbability, minCriterionProbability, type CriterionProbabilities } from '../core/criterion-probabilities.js';
import type { ScoredCase } from './labelled-case.js';

/**
 * The criteria thresholds of a policy that calibration chooses: `done`, the
 * bound of the `criteria` comparisons of the rules that stop as `success`
 * (the seed's `doneThreshold`), and `low`, the lower bound of the ones that
 * hand off below a band (the seed's `midBandLow`), when the policy has them.
 */
export interface PolicyThresholds {
  readonly done: number;
  readonly low?: number;
}

/** The evidence of a case without `tests`: judged on its probabilities alone, as if its tests had passed. */
const ASSUMED_PASSING_TESTS: TestEvidence = Object.freeze({ passed: true, failed: Object.freeze([]) as readonly string[], ran: 1 });

/**
 * The thresholds of `policy` that calibration varies, read from its rules: the
 * one bound its success rules compare criteria with (`gte`, or the bottom of
 * a `within`), and the highest bound below it under which its `need_help`
 * rules stop (their `lt` comparisons). Throws a `TypeError` when no success rule compares a
 * criterion, or when they compare several bounds (calibrate one at a time).
 */
export function policyThresholds(policy: StopPolicyDocument): PolicyThresholds {
  const done = new Set<number>();
  const low = new Set<number>();
  for (const rule of policy.rules) {
    if (rule.then.kind !== 'stop') continue;
    for (const comparison of comparisons(rule.when)) {
      if (rule.then.exit === 'success') {
        if (comparison.gte !== undefined) done.add(comparison.gte);
        if (comparison.within !== undefined) done.add(comparison.within[0]);
      } else if (rule.then.exit === 'need_help' && comparison.lt !== undefined) low.add(comparison.lt);
    }
  }
  const [first, ...others] = [...done];
  if (first === undefined) throw new TypeError(`no rule of the policy${name(policy)} stops as success on a criteria comparison: there is no threshold to calibrate`);
  if (others.length > 0) throw new TypeError(`the success rules of the policy${name(policy)} compare criteria at several thresholds (${[...done].join(', ')}): calibrate a policy with one`);
  const lows = [...low].filter((value) => value < first);
  return lows.length === 0 ? { done: first } : { done: first, low: Math.max(...lows) };
}

/**
 * `policy` with its thresholds moved: every criteria bound equal to the found
 * `done` becomes `thresholds.done`, every one equal to the found `low` becomes
 * `thresholds.low` (bands move with them). The rules and their order stay.
 */
export function withThresholds(policy: StopPolicyDocument, found: PolicyThresholds, thresholds: PolicyThresholds): StopPolicyDocument {
  const move = (value: number): number => (value === found.done ? thresholds.done : found.low !== undefined && value === found.low ? (thresholds.low ?? value) : value);
  const rewrite = (condition: RuleCondition): RuleCondition => {
    if ('all' in condition) return { all: condition.all.map(rewrite) };
    if ('any' in condition) return { any: condition.any.map(rewrite) };
    if ('not' in condition) return { not: rewrite(condition.not) };
    if ('atLeast' in condition) return { atLeast: { count: condition.atLeast.count, of: condition.atLeast.of.map(rewrite) } };
    if (!('criteria' in condition)) return condition;
    const { criterion, gte, lt, within } = condition.criteria;
    const named = criterion === undefined ? {} : { criterion };
    const criteria: CriteriaCondition =
      gte !== undefined ? { ...named, gte: move(gte) } : lt !== undefined ? { ...named, lt: move(lt) } : { ...named, within: [move((within as readonly [number, number])[0]), move((within as readonly [number, number])[1])] };
    return { criteria };
  };
  return validated({ ...policy, rules: policy.rules.map((rule): StopRule => ({ ...rule, when: rewrite(rule.when) })) });
}

/**
 * `policy` for a group of cases where nothing was certified: each rule that
 * would stop as success on a criteria comparison hands off instead
 * (`not_certified`), so a run never stops on the decision model's word alone.
 */
export function uncertified(policy: StopPolicyDocument): StopPolicyDocument {
  return validated({
    ...policy,
    rules: policy.rules.map((rule): StopRule =>
      rule.then.kind === 'stop' && rule.then.exit === 'success' && comparisons(rule.when).length > 0
        ? { ...rule, then: { kind: 'stop', exit: 'need_help', reason: 'not_certified' } }
        : rule,
    ),
  });
}

/**
 * What `policy` decides on one labelled case: one event of `decide` with the
 * case's probabilities, its tests (passing tests when it has none) and its
 * task type, from a fresh state. A case is one check outside any loop: the
 * event is step 0 with no progress fingerprint and no usage, so step caps and
 * stall rules do not fire on it (a limit at 0 still does).
 */
export function decideCase(policy: StopPolicyDocument, labelled: ScoredCase): StopDecision {
  const tests = labelled.tests ?? ASSUMED_PASSING_TESTS;
  return decide(policy, initialStopState(policy), {
    step: 0,
    fingerprint: null,
    tests,
    probabilities: labelled.probabilities,
    ...(labelled.taskType === undefined ? {} : { taskType: labelled.taskType }),
  }).decision;
}

/** What a case comes to under a policy: stopped as done, handed to a person (any other stop), or sent back (`retry` or `continue`). */
export type CaseVerdict = 'done' | 'handoff' | 'retry';

/** What calibration keeps of a decision on a case: its verdict and its reason. */
export interface CaseDecision {
  readonly verdict: CaseVerdict;
  readonly reason: string;
}

/** The verdict of a decision. */
export function verdictOf(decision: StopDecision): CaseVerdict {
  return stopsAsDone(decision) ? 'done' : handsOff(decision) ? 'handoff' : 'retry';
}

/** Cases per label. */
export interface LabelCounts {
  readonly done: number;
  readonly notDone: number;
}

/** Cases per verdict and label. */
export type VerdictCounts = Readonly<Record<CaseVerdict, LabelCounts>>;

/**
 * What `policy` with its thresholds moved does on `cases`:
 * `verdictCounts(policy, cases)(thresholds)` counts, per verdict and label,
 * the verdicts of {@link decideCase} on `withThresholds(policy,
 * policyThresholds(policy), thresholds)`; thresholds that `withThresholds`
 * refuses are refused. Every verdict comes from `decide`, but not every case
 * is decided at every threshold: a decision reads a case's probabilities only
 * through the policy's criteria comparisons, so it is a function of the case's
 * tests, its task type and which side of each bound each compared probability
 * lies on. The first case with such a key is decided, on the policy moved to
 * the thresholds asked for, and every other case with the same key gets its
 * decision; where the policy compares one probability, the cases of a group
 * are sorted by it once and counted by the side of the moved bounds they fall
 * on. Decisions are kept per policy object (a policy is treated as immutable
 * once used); the cases are read once, here.
 */
export function verdictCounts(policy: StopPolicyDocument, cases: readonly ScoredCase[]): (thresholds: PolicyThresholds) => VerdictCounts {
  const table = verdictTable(policy);
  const found = table.found ?? policyThresholds(policy);
  const buckets = new Map<Map<number, CaseDecision>, { values: number[]; cases: ScoredCase[] }>();
  const rest: { readonly key: CaseKey | null; readonly labelled: ScoredCase }[] = [];
  for (const labelled of cases) {
    const key = caseKey(table, labelled);
    const value = key?.values.length === 1 ? key.values[0] : undefined;
    if (key === null || value === undefined) {
      rest.push({ key, labelled });
      continue;
    }
    let bucket = buckets.get(key.decisions);
    if (bucket === undefined) buckets.set(key.decisions, (bucket = { values: [], cases: [] }));
    bucket.values.push(value);
    bucket.cases.push(labelled);
  }
  // Each group of cases that differ only in the one probability compared: its values sorted, apart per label, to count by.
  const groups = [...buckets].map(([decisions, bucket]) => ({
    decisions,
    ...bucket,
    done: Float64Array.from(bucket.values.filter((_, index) => (bucket.cases[index] as ScoredCase).label === 'done')).sort(),
    notDone: Float64Array.from(bucket.values.filter((_, index) => (bucket.cases[index] as ScoredCase).label !== 'done')).sort(),
  }));
  return (thresholds) => {
    // Thresholds the moved policy would not take are refused as withThresholds refuses them.
    if (!table.fits(thresholds)) table.at(thresholds);
    const low = found.low === undefined ? undefined : (thresholds.low ?? found.low);
    const done = thresholds.done;
    const counts = { done: { done: 0, notDone: 0 }, handoff: { done: 0, notDone: 0 }, retry: { done: 0, notDone: 0 } };
    const moved = () => table.at(thresholds);
    // The moved bounds cut each group into at most three runs of values; all the cases of a run get one decision.
    const cuts = low === undefined || low === done ? [Number.NEGATIVE_INFINITY, done] : [Number.NEGATIVE_INFINITY, Math.min(done, low), Math.max(done, low)];
    for (const group of groups) {
      for (let index = 0; index < cuts.length; index++) {
        const from = cuts[index] as number;
        const to = cuts[index + 1] ?? Number.POSITIVE_INFINITY;
        const labelledDone = firstAtOrAbove(group.done, to) - firstAtOrAbove(group.done, from);
        const labelledNotDone = firstAtOrAbove(group.notDone, to) - firstAtOrAbove(group.notDone, from);
        if (labelledDone + labelledNotDone === 0) continue;
        // Every value of the run lies on the same side of each cut as the run's start: its digit (see decisionOf).
        let decision = group.decisions.get((from >= done ? 2 : 0) + (low !== undefined && from >= low ? 1 : 0));
        if (decision === undefined) {
          const at = group.values.findIndex((value) => value >= from && value < to);
          decision = decisionOf(table, { values: [group.values[at] as number], decisions: group.decisions }, group.cases[at] as ScoredCase, done, low, moved);
        }
        counts[decision.verdict].done += labelledDone;
        counts[decision.verdict].notDone += labelledNotDone;
      }
    }
    for (const { key, labelled } of rest) {
      const verdict = decisionOf(table, key, labelled, done, low, moved).verdict;
      if (labelled.label === 'done') counts[verdict].done++;
      else counts[verdict].notDone++;
    }
    return counts;
  };
}

/** The number of values below `bound` in ascending `values`: the index of the first at or above it. */
function firstAtOrAbove(values: Float64Array, bound: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((values[middle] as number) < bound) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * What `policy` decides on each of `cases`, as {@link decideCase} would
 * (verdict and reason), deciding once per key as {@link verdictCounts} does.
 * Any policy: one without thresholds to calibrate has only fixed bounds.
 */
export function caseDecisions(policy: StopPolicyDocument, cases: readonly ScoredCase[]): CaseDecision[] {
  const table = verdictTable(policy);
  return cases.map((labelled) => decisionOf(table, caseKey(table, labelled), labelled, table.found?.done, table.found?.low, () => policy));
}

/** A case as the decision table reads it: the probabilities the comparisons read, and the decisions of its group. */
interface CaseKey {
  readonly values: readonly (number | undefined)[];
  readonly decisions: Map<number, CaseDecision>;
}

function caseKey(table: VerdictTable, labelled: ScoredCase): CaseKey | null {
  const values = comparedValues(labelled, table.readsLowest, table.criteria);
  // A case whose probabilities cannot be read is decided every time (decide says what is wrong), and so is every
  // case of a policy that compares more probabilities than a pattern number holds.
  if (values === null || values.length > MAX_PATTERN_DIGITS) return null;
  return { values, decisions: table.group(`${JSON.stringify([labelled.tests ?? null, labelled.taskType ?? null])}|${values.map((value) => fixedSides(value, table.fixed)).join('')}`) };
}

function decisionOf(table: VerdictTable, key: CaseKey | null, labelled: ScoredCase, done: number | undefined, low: number | undefined, policy: () => StopPolicyDocument): CaseDecision {
  if (key === null) return summary(decideCase(policy(), labelled));
  // One base-5 digit a compared probability: not answered (4), or at or above the done bound (2) plus at or above the low one (1).
  let pattern = 0;
  for (const value of key.values) {
    pattern = pattern * 5 + (value === undefined ? 4 : (done !== undefined && value >= done ? 2 : 0) + (low !== undefined && value >= low ? 1 : 0));
  }
  let decision = key.decisions.get(pattern);
  if (decision === undefined) {
    decision = summary(decideCase(policy(), labelled));
    key.decisions.set(pattern, decision);
  }
  return decision;
}

function summary(decision: StopDecision): CaseDecision {
  return { verdict: verdictOf(decision), reason: decision.reason };
}

/**
 * What is kept per policy: the probabilities its comparisons read, its
 * thresholds (none when it has nothing to calibrate) and its fixed bounds,
 * the policies moved so far, and the decisions of each group of cases (same
 * tests, task type and sides of the fixed bounds) by the sides of the moved
 * bounds.
 */
interface VerdictTable {
  readonly found: PolicyThresholds | undefined;
  readonly readsLowest: boolean;
  readonly criteria: readonly string[];
  readonly fixed: readonly number[];
  /** True when the policy moved to `thresholds` is a valid document: its moved bounds are probabilities and its bands stay in order. */
  readonly fits: (thresholds: PolicyThresholds) => boolean;
  readonly at: (thresholds: PolicyThresholds) => StopPolicyDocument;
  readonly group: (key: string) => Map<number, CaseDecision>;
}

/** Base-5 digits a safe integer holds. */
const MAX_PATTERN_DIGITS = 22;
const MAX_KEPT_GROUPS = 16_384;
const MAX_KEPT_POLICIES = 256;
const tables = new WeakMap<StopPolicyDocument, VerdictTable>();

function verdictTable(policy: StopPolicyDocument): VerdictTable {
  const kept = tables.get(policy);
  if (kept !== undefined) return kept;
  let found: PolicyThresholds | undefined;
  try {
    found = policyThresholds(policy);
  } catch {
    // Nothing to calibrate: every bound is fixed.
  }
  const named = new Set<string>();
  const bounds = new Set<number>();
  const bands = new Map<string, readonly [number, number]>();
  let readsLowest = false;
  for (const rule of policy.rules) {
    for (const comparison of comparisons(rule.when)) {
      if (comparison.criterion === undefined) readsLowest = true;
      else named.add(comparison.criterion);
      if (comparison.gte !== undefined) bounds.add(comparison.gte);
      else if (comparison.lt !== undefined) bounds.add(comparison.lt);
      else if (comparison.within !== undefined) {
        bounds.add(comparison.within[0]);
        bounds.add(comparison.within[1]);
        bands.set(`${comparison.within[0]}/${comparison.within[1]}`, comparison.within);
      }
    }
  }
  if (found !== undefined) {
    bounds.delete(found.done);
    if (found.low !== undefined) bounds.delete(found.low);
  }
  const isProbability = (value: unknown): boolean => typeof value === 'number' && value >= 0 && value <= 1;
  const policies = new Map<string, StopPolicyDocument>();
  const groups = new Map<string, Map<number, CaseDecision>>();
  const table: VerdictTable = {
    found,
    readsLowest,
    criteria: [...named],
    fixed: [...bounds].sort((a, b) => a - b),
    fits: (thresholds) => {
      if (found === undefined) return false;
      const low = thresholds.low ?? found.low;
      if (!isProbability(thresholds.done) || (found.low !== undefined && !isProbability(low))) return false;
      const move = (value: number): number => (value === found.done ? thresholds.done : value === found.low ? (low as number) : value);
      return [...bands.values()].every(([from, to]) => move(from) <= move(to));
    },
    at: (thresholds) => {
      const key = `${thresholds.done}/${thresholds.low}`;
      let moved = policies.get(key);
      if (moved === undefined) {
        moved = withThresholds(policy, found ?? policyThresholds(policy), thresholds);
        if (policies.size >= MAX_KEPT_POLICIES) policies.clear();
        policies.set(key, moved);
      }
      return moved;
    },
    group: (key) => {
      let decisions = groups.get(key);
      if (decisions === undefined) {
        decisions = new Map();
        if (groups.size >= MAX_KEPT_GROUPS) groups.clear();
        groups.set(key, decisions);
      }
      return decisions;
    },
  };
  tables.set(policy, table);
  return table;
}

/** Which side of each fixed bound a compared probability lies on (`u`: not answered). */
function fixedSides(value: number | undefined, fixed: readonly number[]): string {
  if (value === undefined) return 'u';
  let sides = '';
  for (const bound of fixed) sides += value >= bound ? '1' : '0';
  return sides;
}

/** The probabilities the policy's comparisons read on a case (the lowest, then each named one), or null when they cannot be read. */
function comparedValues(labelled: ScoredCase, readsLowest: boolean, criteria: readonly string[]): (number | undefined)[] | null {
  const probabilities = labelled.probabilities as CriterionProbabilities | undefined;
  if (typeof probabilities !== 'object' || probabilities === null) return null;
  try {
    const values: (number | undefined)[] = readsLowest ? [minCriterionProbability(probabilities)] : [];
    for (const name of criteria) {
      const value = Object.hasOwn(probabilities, name) ? probabilities[name] : undefined;
      if (value !== undefined) assertProbability(name, value);
      values.push(value);
    }
    return values;
  } catch {
    return null;
  }
}

/** `document` validated as `parseStopPolicy` validates it (a `StopPolicyError` when it is not valid), deep-frozen, and compiled for `decide` once. */
function validated(document: StopPolicyDocument): StopPolicyDocument {
  return compileStopPolicy(document).document;
}

/** True for a decision that stops as success; a hand-off is any other stop. */
export function stopsAsDone(decision: StopDecision): boolean {
  return decision.kind === 'stop' && decision.exit === 'success';
}

/** True for a decision that hands the run to a person (a stop that is not a success). */
export function handsOff(decision: StopDecision): boolean {
  return decision.kind === 'stop' && decision.exit !== 'success';
}

function comparisons(condition: RuleCondition): CriteriaCondition[] {
  if ('all' in condition) return condition.all.flatMap(comparisons);
  if ('any' in condition) return condition.any.flatMap(comparisons);
  if ('not' in condition) return comparisons(condition.not);
  if ('atLeast' in condition) return condition.atLeast.of.flatMap(comparisons);
  return 'criteria' in condition ? [condition.criteria] : [];
}

function name(policy: StopPolicyDocument): string {
  return policy.name === undefined ? '' : ` "${policy.name}"`;
}
