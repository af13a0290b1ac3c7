// The seed's functions are projections of the engine: each one, on random streams of events, decides as `decide`
// does with its preset policy, run here event by event with the state that `decide` itself carries. The presets
// are written out from the documented tables (not taken from the projections), so a projection that drifts from
// its table, or a mapping (seedStep, the budget counters) that drifts from the engine's own state, fails here.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentLoopState } from '../../../src/core/agent-loop-state.js';
import { checkBudget, type BudgetLimits, type BudgetUsage } from '../../../src/core/budget.js';
import { combineDoneSignal } from '../../../src/core/combine-done-signal.js';
import { minCriterionProbability, type CriterionProbabilities } from '../../../src/core/criterion-probabilities.js';
import { decideCompletionAction } from '../../../src/core/decide-completion-action.js';
import { fingerprintProgress } from '../../../src/core/fingerprint.js';
import { agentLoopPolicy, budgetRules } from '../../../src/core/policy/agent-loop-policy.js';
import { decide, initialStopState, needsJudgement } from '../../../src/core/policy/decide.js';
import { parseStopPolicy } from '../../../src/core/policy/parse-stop-policy.js';
import { SEED_RULE_IDS, seedStopPolicy } from '../../../src/core/policy/seed-stop-policy.js';
import type { StopDecision } from '../../../src/core/policy/stop-decision.js';
import type { StopEvent } from '../../../src/core/policy/stop-event.js';
import type { StopPolicyDocument } from '../../../src/core/policy/stop-policy-document.js';
import type { StopState } from '../../../src/core/policy/stop-state.js';
import { toCompletionAction } from '../../../src/core/policy/to-completion-action.js';
import { appendFingerprint, isStalled } from '../../../src/core/stall.js';
import type { StopPolicy } from '../../../src/core/stop-policy.js';
import type { TestEvidence } from '../../../src/core/test-evidence.js';
import { checkCompletion } from '../../../src/decision-model/check-completion.js';
import { decideCompletionAfterEvaluate } from '../../../src/decision-model/decide-completion-after-evaluate.js';
import { createScriptedClient } from '../../../src/testing/scripted-client.js';
import { budgetLimits } from '../budget-arbitraries.js';
import { probability, stopPolicy, testEvidence } from '../arbitraries.js';
import { eventStream, seedEventBody } from './arbitraries.js';

/** The action a seed decision projects to: a success stop is stop_done, a retry a retry, any other stop a hand-off. */
function actionOf(decision: StopDecision): string {
  if (decision.kind === 'retry') return 'retry';
  if (decision.kind === 'stop') return decision.exit === 'success' ? 'stop_done' : 'handoff_human';
  return 'continue';
}

/** The rule number of the action table: the place of the rule in the seed preset. */
const ruleNumberOf = (decision: StopDecision): number => SEED_RULE_IDS.indexOf(decision.rule as (typeof SEED_RULE_IDS)[number]) + 1;

/** A seed stream: each event with the tests, the output and the two default criteria answered. */
const seedStream = (min: number, max: number) =>
  eventStream(seedEventBody, min, max).chain((events) =>
    fc.array(fc.record({ acceptanceCovered: probability, noOpenQuestions: probability }), { minLength: events.length, maxLength: events.length }).map((answers) =>
      events.map((event, i) => ({ ...event, probabilities: answers[i] as CriterionProbabilities })),
    ),
  );

/** Runs `decide` over the stream, giving each event with the state before it to `check`. */
function walk(policy: StopPolicyDocument, events: readonly StopEvent[], check: (event: StopEvent, before: StopState, decision: StopDecision) => void): void {
  let state = initialStopState(policy);
  for (const event of events) {
    const result = decide(policy, state, event);
    check(event, state, result.decision);
    state = result.state;
  }
}

/** The loop state a seed loop keeps after `event`: its step, and the fingerprints of the steps so far. */
function advance(recent: readonly string[], event: StopEvent, numbers: StopPolicy): AgentLoopState {
  return { step: event.step, recentFingerprints: appendFingerprint(recent, fingerprintProgress(event.tests as TestEvidence, event.output as string), numbers.stallRounds) };
}

describe('decideCompletionAction is decide with seedStopPolicy(numbers)', { timeout: 120_000 }, () => {
  it('gives the action, the reason, the rule and the values of the stream decision at every step', () => {
    fc.assert(
      fc.property(stopPolicy, seedStream(1, 20), (numbers, events) => {
        const policy = seedStopPolicy(numbers);
        let loop: AgentLoopState = { step: 0, recentFingerprints: [] };
        walk(policy, events, (event, _before, decision) => {
          loop = advance(loop.recentFingerprints, event, numbers);
          const action = decideCompletionAction(event.probabilities as CriterionProbabilities, event.tests as TestEvidence, loop, numbers);
          expect(action.action).toBe(actionOf(decision));
          expect(action.reason).toBe(decision.reason);
          expect(action.rule).toBe(ruleNumberOf(decision));
          expect(action).toEqual(toCompletionAction(decision, numbers));
        });
      }),
      { numRuns: 600 },
    );
  });
});

describe('decideCompletionAfterEvaluate is decide with seedStopPolicy(numbers), asking the model when needsJudgement says', { timeout: 120_000 }, () => {
  it('asks only when the stream state needs probabilities, and then decides as the stream does', async () => {
    await fc.assert(
      fc.asyncProperty(stopPolicy, seedStream(1, 12), async (numbers, events) => {
        const policy = seedStopPolicy(numbers);
        const checks: { event: StopEvent; asks: boolean; decision: StopDecision; loop: AgentLoopState }[] = [];
        let loop: AgentLoopState = { step: 0, recentFingerprints: [] };
        walk(policy, events, (event, before, decision) => {
          loop = advance(loop.recentFingerprints, event, numbers);
          const { probabilities: _, ...unjudged } = event;
          checks.push({ event, asks: needsJudgement(policy, before, unjudged), decision, loop });
        });
        for (const { event, asks, decision, loop: at } of checks) {
          const client = createScriptedClient([event.probabilities as CriterionProbabilities]);
          const next = await decideCompletionAfterEvaluate(client, { task: 'task', output: event.output as string, acceptance: ['a'], tests: event.tests as TestEvidence, loop: at, policy: numbers });
          expect(next.evaluated).toBe(asks);
          expect(client.calls).toHaveLength(asks ? 1 : 0);
          expect(next.action).toBe(actionOf(decision));
          expect(next.reason).toBe(decision.reason);
          expect(next.rule).toBe(ruleNumberOf(decision));
          if (next.evaluated) expect(next.probabilities).toEqual(event.probabilities);
        }
      }),
      { numRuns: 150 },
    );
  });
});

/** The done-signal table, as documented: no tests ran; tests failed; the model does not say done; otherwise done. */
function doneSignalPreset(doneThreshold: number): StopPolicyDocument {
  return parseStopPolicy({
    version: 2,
    name: 'done-signal (documented)',
    rules: [
      { id: 'no_tests_ran', when: { tests: 'no_tests_ran' }, then: { kind: 'retry', reason: 'no_tests_ran' } },
      { id: 'tests_failed', when: { tests: 'failed' }, then: { kind: 'retry', reason: 'tests_failed' } },
      { id: 'criteria_below_threshold', when: { criteria: { lt: doneThreshold } }, then: { kind: 'retry', reason: 'criteria_below_threshold' } },
      { id: 'tests_and_criteria_passed', when: { criteria: { gte: doneThreshold } }, then: { kind: 'stop', exit: 'success', reason: 'tests_and_criteria_passed' } },
    ],
  });
}

const criteria = fc.dictionary(fc.constantFrom('acceptanceCovered', 'noOpenQuestions', 'docsUpdated'), probability, { maxKeys: 3 });

describe('combineDoneSignal is decide with the done-signal preset', { timeout: 120_000 }, () => {
  it('gives the reason, done and the model view of the preset decision', () => {
    const presets = new Map<number, StopPolicyDocument>();
    fc.assert(
      fc.property(stopPolicy, criteria, testEvidence, (numbers, probabilities, tests) => {
        const preset = presets.get(numbers.doneThreshold) ?? doneSignalPreset(numbers.doneThreshold);
        presets.set(numbers.doneThreshold, preset);
        const { decision } = decide(preset, initialStopState(preset), { step: 1, tests, probabilities });
        const signal = combineDoneSignal(probabilities, tests, numbers);
        expect(signal.reason).toBe(decision.reason);
        expect(signal.done).toBe(decision.kind === 'stop');
        expect(signal.lowestProbability).toBe(minCriterionProbability(probabilities));
        expect(signal.modelSaysDone).toBe(minCriterionProbability(probabilities) >= numbers.doneThreshold);
        if (signal.reason === 'tests_failed') expect(signal.failed).toEqual(tests.failed);
      }),
      { numRuns: 400 },
    );
  });
});

describe('checkCompletion is the decision model answer decided with the done-signal preset', { timeout: 120_000 }, () => {
  it('gives the reason and done of the preset decision on the probabilities the model answered', async () => {
    await fc.assert(
      fc.asyncProperty(stopPolicy, fc.record({ acceptanceCovered: probability, noOpenQuestions: probability }), testEvidence, async (numbers, probabilities, tests) => {
        const preset = doneSignalPreset(numbers.doneThreshold);
        const { decision } = decide(preset, initialStopState(preset), { step: 1, tests, probabilities });
        const client = createScriptedClient([probabilities], { model: 'm' });
        const check = await checkCompletion(client, { task: 'task', output: 'out', acceptance: ['a'], tests, policy: numbers });
        expect(check.reason).toBe(decision.reason);
        expect(check.done).toBe(decision.kind === 'stop');
        expect(check.probabilities).toEqual(probabilities);
        expect(check.model).toBe('m');
      }),
      { numRuns: 300 },
    );
  });
});

describe('isStalled is decide with the stall preset', { timeout: 120_000 }, () => {
  it('holds exactly when the stall rule stops the stream of those fingerprints', () => {
    const presets = new Map<number, StopPolicyDocument>();
    fc.assert(
      fc.property(fc.array(fc.constantFrom('f1', 'f2', 'f3'), { maxLength: 12 }), fc.integer({ min: 1, max: 6 }), (fingerprints, window) => {
        const preset =
          presets.get(window) ??
          parseStopPolicy({
            version: 2,
            rules: [{ id: 'stalled', when: { stall: { detector: 'identical_fingerprints', rounds: window } }, then: { kind: 'stop', exit: 'need_help', reason: 'stalled' } }],
          });
        presets.set(window, preset);
        let last: StopDecision | undefined;
        walk(preset, fingerprints.map((fingerprint, i) => ({ step: i + 1, fingerprint })), (_event, _before, decision) => {
          last = decision;
        });
        const stopped = last?.kind === 'stop';
        expect(isStalled(fingerprints, window)).toBe(stopped);
        if (stopped) expect(last).toMatchObject({ rule: 'stalled', values: { stallRounds: window, fingerprint: fingerprints[fingerprints.length - 1] } });
      }),
      { numRuns: 1500 },
    );
  });
});

/** What checkBudget reports for each limit key: the engine's counter and the limit kind. */
const KIND_OF: Readonly<Record<keyof BudgetLimits, readonly [string, string]>> = {
  maxSteps: ['steps', 'steps'],
  maxWallClockMs: ['wallClockMs', 'wall_clock'],
  maxInputTokens: ['inputTokens', 'tokens'],
  maxOutputTokens: ['outputTokens', 'tokens'],
  maxTotalTokens: ['totalTokens', 'tokens'],
  maxCost: ['cost', 'cost'],
  maxToolErrors: ['toolErrors', 'tool_errors'],
};

const stepSpend = fc.record({
  inputTokens: fc.nat(20),
  outputTokens: fc.nat(20),
  cost: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 5, noNaN: true })),
  toolErrors: fc.nat(2),
  wallClockMs: fc.nat(10),
});

describe('checkBudget is decide with the budget rules', { timeout: 120_000 }, () => {
  it('reaches the limit the budget policy stops on, with its key, kind, use and max, at every step of a run', () => {
    fc.assert(
      fc.property(budgetLimits, fc.array(stepSpend, { minLength: 1, maxLength: 15 }), (limits, spends) => {
        const rules = budgetRules(limits);
        const budget = parseStopPolicy({ version: 2, rules: rules.length > 0 ? rules : [{ id: 'none', when: { always: true }, then: { kind: 'continue' } }] });
        // The agent loop preset holds the same rules after the exits no budget event reaches.
        const loop = agentLoopPolicy(limits);
        let used: BudgetUsage = { steps: 0, wallClockMs: 0, inputTokens: 0, outputTokens: 0, cost: 0, toolErrors: 0 };
        const events = spends.map(({ wallClockMs, ...usage }, i) => {
          used = { steps: i + 1, wallClockMs: used.wallClockMs + wallClockMs, inputTokens: used.inputTokens + usage.inputTokens, outputTokens: used.outputTokens + usage.outputTokens, cost: used.cost + usage.cost, toolErrors: used.toolErrors + usage.toolErrors };
          return { event: { step: i + 1, elapsedMs: used.wallClockMs, usage } as StopEvent, used };
        });
        const decisions: StopDecision[] = [];
        walk(budget, events.map((entry) => entry.event), (_event, _before, decision) => void decisions.push(decision));
        let viaLoop = 0;
        walk(loop, events.map((entry) => entry.event), (_event, _before, decision) => {
          expect(decision.rule).toBe(decisions[viaLoop]?.kind === 'stop' ? decisions[viaLoop]?.rule : null);
          viaLoop++;
        });
        events.forEach(({ used: total }, i) => {
          const decision = decisions[i] as StopDecision;
          const check = checkBudget(limits, total);
          expect(check.ok).toBe(decision.kind !== 'stop');
          if (check.ok || decision.kind !== 'stop') return;
          const key = decision.rule as keyof BudgetLimits;
          const [counter, kind] = KIND_OF[key];
          expect(check.key).toBe(key);
          expect(check.limit).toBe(kind);
          expect(check.used).toBeCloseTo(decision.values[counter] as number, 9);
          expect(check.max).toBe(limits[key]);
        });
      }),
      { numRuns: 400 },
    );
  });
});
