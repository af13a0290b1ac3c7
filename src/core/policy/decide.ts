import { fingerprintProgress } from '../fingerprint.js';
import type { StallFinding } from '../stall-detection/stall-finding.js';
import { observeStep } from '../stall-detection/observe-step.js';
import { initialStallState, type StallState } from '../stall-detection/stall-state.js';
import { initialStallScoreState, observeScoreFeatures, stallScore, type StallScoreState } from '../stall-detection/stall-score.js';
import { appendFingerprint } from '../stall.js';
import type { TestEvidence } from '../test-evidence.js';
import { compileStopPolicy, type CompiledPolicy, type EvaluationContext, type Scratch, type StallScoreReading } from './compile-stop-policy.js';
import type { DecideResult, DecisionTraceEntry, DecisionValue, RetryFeedback, StopDecision, UnmetCondition } from './stop-decision.js';
import { eventDigest } from './event-digest.js';
import { retryFeedback } from './describe-decision.js';
import { assertStopEvent, type StopEvent } from './stop-event.js';
import type { StopPolicyDocument } from './stop-policy-document.js';
import { notifyDecision } from '../stop-observer.js';
import { assertStopState, STOP_STATE_VERSION, ZERO_TOTALS, type StopState, type StopStateCore, type StopTotals } from './stop-state.js';

const NO_TESTS: TestEvidence = Object.freeze({ passed: false, failed: Object.freeze([]) as readonly string[], ran: 0 });

/**
 * The state of a run before its first event, for `policy` (validated here:
 * a malformed policy throws a `StopPolicyError`).
 *
 * @example
 * let state = initialStopState(SEED_STOP_POLICY);
 */
export function initialStopState(policy: StopPolicyDocument): StopState {
  const { stepHistory, scoreModels } = compileStopPolicy(policy);
  const state: StopState = { version: STOP_STATE_VERSION, step: 0, totals: ZERO_TOTALS, elapsedMs: 0, fingerprints: [], retries: 0 };
  if (stepHistory.length === 0 && scoreModels.length === 0) return state;
  return {
    ...state,
    ...(stepHistory.length === 0 ? {} : { stall: stepHistory.map((options) => initialStallState(options)) }),
    ...(scoreModels.length === 0 ? {} : { score: scoreModels.map(() => initialStallScoreState()) }),
  };
}

/**
 * Decides one event with a policy: the first rule whose condition holds
 * decides. Pure: returns the state to carry to the next event and the
 * decision, with the rule that fired, the values it compared and why each
 * earlier rule did not fire.
 *
 * Applying again the event of the last applied step returns the same
 * decision and the same state (a replayed step counts nothing twice); an
 * event for an older step, or a different event for the last step, throws a
 * `TypeError`, as does an event that a rule needs criterion probabilities
 * for and that has none (see {@link needsJudgement}). A stop does not latch:
 * a later event is decided as the rules say.
 *
 * @example
 * let state = initialStopState(SEED_STOP_POLICY);
 * const result = decide(SEED_STOP_POLICY, state, {
 *   step: 1,
 *   tests: { passed: true, failed: [], ran: 12 },
 *   probabilities: { acceptanceCovered: 0.92, noOpenQuestions: 0.81 },
 *   output: 'Added the endpoint and its tests.',
 * });
 * result.decision; // { kind: 'stop', exit: 'success', reason: 'tests_and_criteria_passed', rule: 'done', ... }
 * state = result.state;
 */
export function decide(policy: StopPolicyDocument, state: StopState, event: StopEvent): DecideResult {
  const result = decideUnobserved(policy, state, event);
  if (result.state !== state) notifyDecision(result.decision, result.state.step, result.state.totals, policy.name);
  return result;
}

/**
 * `decide` without telling the stop observer: for a check that is not a
 * run's decision (`combineDoneSignal`, `isStalled`, `checkBudget`), and for a
 * driver that reports the decision itself only when it keeps it.
 */
export function decideUnobserved(policy: StopPolicyDocument, state: StopState, event: StopEvent): DecideResult {
  const compiled = compileStopPolicy(policy);
  assertStopState(state);
  assertStopEvent(event);
  const fingerprint = progressOf(event);
  const digest = eventDigest(event, fingerprint ?? '');
  if (event.step === state.step && state.last !== undefined) {
    if (state.last.digest !== digest) {
      throw new TypeError(`step ${event.step} was already decided with a different event; a step is decided once (replaying it must send the same event)`);
    }
    return { state, decision: decideAfter(compiled, state.last.prior, event, fingerprint).decision };
  }
  if (event.step < state.step || (event.step === state.step && !(event.step === 0 && state.last === undefined))) {
    throw new TypeError(`event.step ${event.step} is not after the last step decided (${state.step}); events come in step order`);
  }
  const prior = coreOf(state);
  const { core, decision } = decideAfter(compiled, prior, event, fingerprint);
  const retries = decision.kind === 'retry' ? prior.retries + 1 : 0;
  // Two literals rather than a conditional spread, which copies through the slow generic path on every decision.
  const last = { digest, prior };
  const next: StopState =
    core.stall === undefined && core.score === undefined
      ? { version: STOP_STATE_VERSION, step: core.step, totals: core.totals, elapsedMs: core.elapsedMs, fingerprints: core.fingerprints, retries, last }
      : {
          version: STOP_STATE_VERSION,
          step: core.step,
          totals: core.totals,
          elapsedMs: core.elapsedMs,
          fingerprints: core.fingerprints,
          retries,
          ...(core.stall === undefined ? {} : { stall: core.stall }),
          ...(core.score === undefined ? {} : { score: core.score }),
          last,
        };
  return { state: next, decision };
}

/**
 * True when the decision for `event` depends on criterion probabilities that
 * it does not carry (none at all, or not the criterion a rule names): ask the
 * decision model, add its answers to the event, then `decide`. False when the rules decide without them (a limit, a stall,
 * missing or failing evidence first), so no request is made for nothing.
 */
export function needsJudgement(policy: StopPolicyDocument, state: StopState, event: StopEvent): boolean {
  const compiled = compileStopPolicy(policy);
  assertStopState(state);
  assertStopEvent(event);
  return 'pending' in evaluateRules(compiled, eventContext(compiled, state, event));
}

/** What the conditions read for `event` after `state` (its prior state when it replays the last step), without deciding. */
function eventContext(compiled: CompiledPolicy, state: StopState, event: StopEvent): EvaluationContext {
  const base = event.step === state.step && state.last !== undefined ? state.last.prior : coreOf(state);
  return contextOf(advance(base, event, progressOf(event), compiled), base.retries, event);
}

/** The step's progress fingerprint: the driver's own, none (`null`), or made from the tests and the output. */
function progressOf(event: StopEvent): string | null {
  return event.fingerprint !== undefined ? event.fingerprint : fingerprintProgress(event.tests ?? NO_TESTS, event.output ?? '');
}

function decideAfter(
  compiled: CompiledPolicy,
  prior: StopStateCore,
  event: StopEvent,
  fingerprint: string | null,
): { core: Advanced; decision: StopDecision } {
  const core = advance(prior, event, fingerprint, compiled);
  const result = evaluateRules(compiled, contextOf(core, prior.retries, event));
  if ('pending' in result) {
    if (event.probabilities !== undefined) {
      throw new TypeError(
        `rule "${result.pending}" reads ${result.unmet.condition}, which the probabilities of event ${event.step} do not answer; ask the decision model for it (needsJudgement says when)`,
      );
    }
    throw new TypeError(
      `rule "${result.pending}" needs criterion probabilities and event ${event.step} has none; ask the decision model first (needsJudgement says when)`,
    );
  }
  return { core, decision: result.decision };
}

/** Runs the rules in order on a context: the first that holds decides; `pending` names a rule that needs probabilities the context lacks. */
function evaluateRules(compiled: CompiledPolicy, context: EvaluationContext): { decision: StopDecision } | { pending: string; unmet: UnmetCondition } {
  const trace: DecisionTraceEntry[] = [];
  const scratch: Scratch = { unmet: undefined, lowest: undefined };
  for (const rule of compiled.rules) {
    const holds = rule.evaluate(context, scratch, undefined);
    if (holds === undefined) return { pending: rule.id, unmet: scratch.unmet as UnmetCondition };
    if (!holds) {
      trace.push({ rule: rule.id, unmet: scratch.unmet as UnmetCondition });
      continue;
    }
    // A second pass over the one rule that fired collects the values it compared.
    const values: Record<string, DecisionValue> = { step: context.step };
    rule.evaluate(context, scratch, values);
    const then = rule.then;
    switch (then.kind) {
      case 'continue':
        return { decision: { kind: 'continue', reason: then.reason ?? 'continue', rule: rule.id, values, trace } };
      case 'retry':
        return { decision: { kind: 'retry', reason: then.reason, rule: rule.id, values, trace, feedback: retryFeedback(values, context, then.reason) } };
      case 'stop':
        return { decision: { kind: 'stop', exit: then.exit, reason: then.reason, rule: rule.id, values, trace } };
    }
  }
  return { decision: { kind: 'continue', reason: 'no_rule_fired', rule: null, values: { step: context.step }, trace } };
}

/** The state after an event, before its decision counts the retries, and what the stall detectors found on its steps. */
type Advanced = Omit<StopStateCore, 'retries'> & { readonly findings: readonly (readonly StallFinding[])[]; readonly readings: readonly StallScoreReading[] };

function advance(core: StopStateCore, event: StopEvent, fingerprint: string | null, compiled: CompiledPolicy): Advanced {
  const usage = event.usage;
  const totals: StopTotals =
    usage === undefined
      ? core.totals
      : {
          inputTokens: core.totals.inputTokens + (usage.inputTokens ?? 0),
          outputTokens: core.totals.outputTokens + (usage.outputTokens ?? 0),
          cost: core.totals.cost + (usage.cost ?? 0),
          toolErrors: core.totals.toolErrors + (usage.toolErrors ?? 0),
          decisionModelCalls: core.totals.decisionModelCalls + (usage.decisionModelCalls ?? 0),
          decisionModelCost: core.totals.decisionModelCost + (usage.decisionModelCost ?? 0),
        };
  if (usage !== undefined) {
    for (const key of Object.keys(totals) as (keyof StopTotals)[]) {
      if (!Number.isFinite(totals[key])) throw new TypeError(`event.usage.${key} takes the run's total past the largest number: ${totals[key]}; the event is refused, the state unchanged`);
    }
  }
  const window = compiled.window;
  const step = event.step;
  const elapsedMs = event.elapsedMs === undefined ? core.elapsedMs : Math.max(core.elapsedMs, event.elapsedMs);
  const fingerprints = window === 0 ? [] : fingerprint === null ? core.fingerprints : appendFingerprint(core.fingerprints, fingerprint, window);
  const slots = compiled.stepHistory;
  const models = compiled.scoreModels;
  if (slots.length === 0 && models.length === 0) return { step, totals, elapsedMs, fingerprints, findings: NO_FINDINGS, readings: NO_READINGS };
  const steps = event.steps ?? [];
  const stall: StallState[] = [];
  const findings: StallFinding[][] = [];
  slots.forEach((options, slot) => {
    let detector = core.stall?.[slot] ?? initialStallState(options);
    const found: StallFinding[] = [];
    for (const step of steps) {
      const observed = observeStep(detector, step, options);
      detector = observed.state;
      if (observed.stall !== undefined) found.push(observed.stall);
    }
    stall.push(detector);
    findings.push(found);
  });
  const score: StallScoreState[] = [];
  const readings: StallScoreReading[] = [];
  models.forEach((model, slot) => {
    let scored = core.score?.[slot] ?? initialStallScoreState();
    let peak: number | null = null;
    let hit: StallScoreReading['hit'];
    for (const step of steps) {
      // The run's index of the step, as the rule detector counts it.
      const index = scored.rules.steps;
      const observed = observeScoreFeatures(scored, step, model.window);
      scored = observed.state;
      if (step.role === 'user') continue;
      const value = stallScore(model, observed.features);
      peak = peak === null ? value : Math.max(peak, value);
      if (model.threshold !== null && value >= model.threshold) hit = { step: index, score: value, features: observed.features };
    }
    score.push(scored);
    readings.push(hit === undefined ? { peak } : { peak, hit });
  });
  return {
    step,
    totals,
    elapsedMs,
    fingerprints,
    ...(slots.length === 0 ? {} : { stall }),
    ...(models.length === 0 ? {} : { score }),
    findings: slots.length === 0 ? NO_FINDINGS : findings,
    readings: models.length === 0 ? NO_READINGS : readings,
  };
}

const NO_FINDINGS: readonly (readonly StallFinding[])[] = Object.freeze([]);
const NO_READINGS: readonly StallScoreReading[] = Object.freeze([]);

function contextOf(core: Advanced, retries: number, event: StopEvent): EvaluationContext {
  return {
    step: core.step,
    totals: core.totals,
    elapsedMs: core.elapsedMs,
    fingerprints: core.fingerprints,
    retries,
    tests: event.tests,
    probabilities: event.probabilities,
    signal: event.signal,
    verification: event.verification,
    checks: event.checks,
    human: event.human,
    tree: event.tree,
    decisionModel: event.decisionModel,
    provider: event.provider,
    reentered: event.reentered,
    taskType: event.taskType,
    stallFindings: core.findings,
    stallScores: core.readings,
  };
}

function coreOf(state: StopState): StopStateCore {
  const core = { step: state.step, totals: state.totals, elapsedMs: state.elapsedMs, fingerprints: state.fingerprints, retries: state.retries };
  if (state.stall === undefined && state.score === undefined) return core;
  return { ...core, ...(state.stall === undefined ? {} : { stall: state.stall }), ...(state.score === undefined ? {} : { score: state.score }) };
}
