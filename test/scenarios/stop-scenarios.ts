// One table of event streams, each with the decision every driver must reach and the step it reaches it on.
// A runner turns a scenario into its driver's own inputs (turns, AI SDK steps, hook payloads, graph state),
// runs the driver for real, and reports the decision it ended on; test/scenarios/stop-scenarios.test.ts runs
// every runner over every scenario it supports. To add a driver, write a `StopScenarioRunner` and add it there.
import { createStopPolicy, parseStopPolicy, seedStopPolicy, type StopDecision, type StopEvent, type StopPolicyDocument } from '../../src/index.js';

/** The decision a scenario expects: what was decided, on which step, by which rule. */
export interface ExpectedDecision {
  readonly step: number;
  readonly kind: StopDecision['kind'];
  readonly exit?: string;
  readonly rule: string | null;
  readonly reason: string;
}

/** One event stream: the events of steps 1, 2, ... in order, and the decision the last one must end on. */
export interface StopScenario {
  readonly name: string;
  readonly policy: StopPolicyDocument;
  readonly events: readonly StopEvent[];
  readonly expected: ExpectedDecision;
}

/** What a runner reports: the last decision its driver made, in the terms of {@link ExpectedDecision}. */
export type ReachedDecision = ExpectedDecision;

/**
 * A driver under test. `supports` says whether the driver can express every field the scenario's events carry
 * (`true`, or the reason it cannot: a stopWhen sees no person's answer, a hook no cost); `run` drives it to the end.
 */
export interface StopScenarioRunner {
  readonly name: string;
  supports(scenario: StopScenario): true | string;
  run(scenario: StopScenario): Promise<ReachedDecision>;
}

/** The decision in the terms of {@link ExpectedDecision}, at the step it was made on. */
export function reachedOf(decision: StopDecision): ReachedDecision {
  return {
    step: decision.values.step as number,
    kind: decision.kind,
    ...(decision.kind === 'stop' ? { exit: decision.exit } : {}),
    rule: decision.rule,
    reason: decision.reason,
  };
}

const GREEN = { passed: true, failed: [], ran: 12 } as const;
const RED = { passed: false, failed: ['paginate returns the last page'], ran: 12 } as const;
const NONE = { passed: false, failed: [], ran: 0 } as const;
const SURE = { acceptanceCovered: 0.92, noOpenQuestions: 0.85 } as const;
const UNSURE = { acceptanceCovered: 0.55, noOpenQuestions: 0.9 } as const;
const DOUBTFUL = { acceptanceCovered: 0.3, noOpenQuestions: 0.8 } as const;

/** The seed preset (the action table) with a step cap of 5. */
export const SEED_SCENARIO_POLICY: StopPolicyDocument = seedStopPolicy(createStopPolicy({ maxSteps: 5 }));

/** A loop policy with limits first, then the finish signal, a person's answer and the test evidence of a `done`. */
export const LOOP_SCENARIO_POLICY: StopPolicyDocument = parseStopPolicy({
  version: 2,
  name: 'scenario-loop',
  rules: [
    { id: 'max_steps', when: { limit: { of: 'steps', max: 8 } }, then: { kind: 'stop', exit: 'limit', reason: 'max_steps' } },
    { id: 'max_cost', when: { limit: { of: 'cost', max: 1 } }, then: { kind: 'stop', exit: 'limit', reason: 'max_cost' } },
    { id: 'max_tokens', when: { limit: { of: 'totalTokens', max: 5000 } }, then: { kind: 'stop', exit: 'limit', reason: 'max_tokens' } },
    { id: 'gave_up', when: { signal: 'give_up' }, then: { kind: 'stop', exit: 'gave_up', reason: 'gave_up' } },
    { id: 'nobody_answered', when: { all: [{ signal: 'need_help' }, { human: 'timed_out' }] }, then: { kind: 'stop', exit: 'need_help', reason: 'nobody_answered' } },
    { id: 'answered', when: { all: [{ signal: 'need_help' }, { human: 'answered' }] }, then: { kind: 'continue', reason: 'answered' } },
    { id: 'need_help', when: { signal: 'need_help' }, then: { kind: 'stop', exit: 'need_help', reason: 'need_help' } },
    { id: 'done_on_red', when: { all: [{ signal: 'done' }, { tests: 'failed' }] }, then: { kind: 'retry', reason: 'done_on_red' } },
    { id: 'not_verified', when: { all: [{ signal: 'done' }, { verification: 'failed' }] }, then: { kind: 'retry', reason: 'not_verified' } },
    { id: 'done', when: { all: [{ signal: 'done' }, { tests: 'passed' }] }, then: { kind: 'stop', exit: 'success', reason: 'done_and_green' } },
  ],
});

/** A policy with the step-history stall detector ahead of a step cap of 6. */
export const STALL_SCENARIO_POLICY: StopPolicyDocument = parseStopPolicy({
  version: 2,
  name: 'scenario-stall',
  rules: [
    { id: 'max_steps', when: { limit: { of: 'steps', max: 6 } }, then: { kind: 'stop', exit: 'limit', reason: 'max_steps' } },
    { id: 'looping', when: { stall: { detector: 'step_history' } }, then: { kind: 'stop', exit: 'need_help', reason: 'looping' } },
  ],
});

const seed = (name: string, events: readonly StopEvent[], expected: ExpectedDecision): StopScenario => ({ name, policy: SEED_SCENARIO_POLICY, events, expected });
const loop = (name: string, events: readonly StopEvent[], expected: ExpectedDecision): StopScenario => ({ name, policy: LOOP_SCENARIO_POLICY, events, expected });
/** The rules LangGraph's `routeStop` decides a turn with, as its documentation gives them, with a step cap of 4. */
export const ROUTE_SCENARIO_POLICY: StopPolicyDocument = parseStopPolicy({
  version: 2,
  name: 'route-stop',
  rules: [
    { id: 'max_steps', when: { limit: { of: 'steps', max: 4 } }, then: { kind: 'stop', exit: 'limit', reason: 'max_steps' } },
    { id: 'verified_done', when: { all: [{ signal: 'done' }, { verification: 'passed' }] }, then: { kind: 'stop', exit: 'success', reason: 'verified_done' } },
    { id: 'gave_up', when: { signal: 'give_up' }, then: { kind: 'stop', exit: 'gave_up', reason: 'agent_gave_up' } },
    { id: 'need_help', when: { signal: 'need_help' }, then: { kind: 'stop', exit: 'need_help', reason: 'agent_needs_help' } },
  ],
});

const route = (name: string, events: readonly StopEvent[], expected: ExpectedDecision): StopScenario => ({ name, policy: ROUTE_SCENARIO_POLICY, events, expected });
const stall = (name: string, events: readonly StopEvent[], expected: ExpectedDecision): StopScenario => ({ name, policy: STALL_SCENARIO_POLICY, events, expected });
const runTests = (output: string) => ({ tool: 'run_tests', input: { suite: 'unit' }, output, error: false });

/** The scenario table. */
export const STOP_SCENARIOS: readonly StopScenario[] = [
  seed(
    'green at step 3',
    [
      { step: 1, tests: NONE, output: 'Read paginate.ts.' },
      { step: 2, tests: RED, probabilities: UNSURE, output: 'Changed the loop bound.' },
      { step: 3, tests: GREEN, probabilities: SURE, output: 'Handled the empty last page.' },
    ],
    { step: 3, kind: 'stop', exit: 'success', rule: 'tests_and_criteria_passed', reason: 'tests_and_criteria_passed' },
  ),
  seed(
    'red then green',
    [
      { step: 1, tests: RED, probabilities: DOUBTFUL, output: 'First attempt.' },
      { step: 2, tests: GREEN, probabilities: SURE, output: 'Second attempt.' },
    ],
    { step: 2, kind: 'stop', exit: 'success', rule: 'tests_and_criteria_passed', reason: 'tests_and_criteria_passed' },
  ),
  seed(
    'the decision model says done on red',
    [
      { step: 1, tests: NONE, output: 'Looked around.' },
      { step: 2, tests: RED, probabilities: SURE, output: 'Done, I think.' },
    ],
    { step: 2, kind: 'stop', exit: 'need_help', rule: 'evidence_contradicts_model', reason: 'evidence_contradicts_model' },
  ),
  seed(
    'mid band, then low',
    [
      { step: 1, tests: GREEN, probabilities: UNSURE, output: 'Tests pass; docs not updated.' },
      { step: 2, tests: GREEN, probabilities: DOUBTFUL, output: 'Rewrote the docs differently.' },
    ],
    { step: 2, kind: 'stop', exit: 'need_help', rule: 'criteria_low', reason: 'criteria_low' },
  ),
  seed(
    'stall on identical progress',
    [
      { step: 1, tests: RED, probabilities: DOUBTFUL, output: 'Trying the same fix.' },
      { step: 2, tests: RED, probabilities: DOUBTFUL, output: 'Trying the same fix.' },
      { step: 3, tests: RED, probabilities: DOUBTFUL, output: 'Trying the same fix.' },
    ],
    { step: 3, kind: 'stop', exit: 'need_help', rule: 'stalled', reason: 'stalled' },
  ),
  seed(
    'cap',
    [1, 2, 3, 4, 5].map((step) => ({ step, tests: RED, probabilities: DOUBTFUL, output: `Attempt ${step}.` })),
    { step: 5, kind: 'stop', exit: 'limit', rule: 'hard_cap', reason: 'hard_cap' },
  ),
  loop(
    'give up',
    [
      { step: 1, output: 'The invoice portal answers 503.' },
      { step: 2, output: 'Still 503.', signal: { kind: 'give_up', note: 'The portal answered HTTP 503 twice.' } },
    ],
    { step: 2, kind: 'stop', exit: 'gave_up', rule: 'gave_up', reason: 'gave_up' },
  ),
  loop(
    'need help, answered',
    [
      { step: 1, output: 'Refund above the limit.', signal: { kind: 'need_help', note: 'Approve 1,800 EUR?' }, human: { answer: 'Approve', timedOut: false } },
      { step: 2, output: 'Refund approved.', tests: GREEN, signal: { kind: 'done', note: 'refunded' } },
    ],
    { step: 2, kind: 'stop', exit: 'success', rule: 'done', reason: 'done_and_green' },
  ),
  loop(
    'need help, timed out',
    [{ step: 1, output: 'Refund above the limit.', signal: { kind: 'need_help', note: 'Approve 1,800 EUR?' }, human: { timedOut: true } }],
    { step: 1, kind: 'stop', exit: 'need_help', rule: 'nobody_answered', reason: 'nobody_answered' },
  ),
  loop(
    'budget on cost',
    [1, 2, 3, 4].map((step) => ({ step, output: `Working ${step}.`, usage: { inputTokens: 100, outputTokens: 20, cost: 0.4 } })),
    { step: 3, kind: 'stop', exit: 'limit', rule: 'max_cost', reason: 'max_cost' },
  ),
  loop(
    'budget on tokens',
    [1, 2, 3, 4].map((step) => ({ step, output: `Working ${step}.`, usage: { inputTokens: 1500, outputTokens: 500 } })),
    { step: 3, kind: 'stop', exit: 'limit', rule: 'max_tokens', reason: 'max_tokens' },
  ),
  loop(
    'the model says done on red, then on green',
    [
      { step: 1, output: 'Fixed it.', tests: RED, signal: { kind: 'done', note: 'fixed' } },
      { step: 2, output: 'Fixed the last page too.', tests: GREEN, signal: { kind: 'done', note: 'fixed for real' } },
    ],
    { step: 2, kind: 'stop', exit: 'success', rule: 'done', reason: 'done_and_green' },
  ),
  loop(
    'a done that verification rejects, then accepts',
    [
      { step: 1, output: 'Report with 2 sources.', signal: { kind: 'done', note: 'report' }, verification: { ok: false, unmet: ['cites the survey'] } },
      { step: 2, output: 'Report with 3 sources.', tests: GREEN, signal: { kind: 'done', note: 'report' }, verification: { ok: true } },
    ],
    { step: 2, kind: 'stop', exit: 'success', rule: 'done', reason: 'done_and_green' },
  ),
  loop(
    'step cap with no signal',
    [1, 2, 3, 4, 5, 6, 7, 8].map((step) => ({ step, output: `Exploring ${step}.` })),
    { step: 8, kind: 'stop', exit: 'limit', rule: 'max_steps', reason: 'max_steps' },
  ),
  stall(
    'stall in the tool steps: the same failing run again and again',
    [1, 2, 3, 4, 5, 6].map((step) => ({ step, steps: [runTests('FAIL test/paginate.test.ts: 1 failed, 11 passed')] })),
    { step: 4, kind: 'stop', exit: 'need_help', rule: 'looping', reason: 'looping' },
  ),
  stall(
    'polling whose output changes is progress, not a loop',
    [1, 2, 3, 4, 5, 6].map((step) => ({ step, steps: [{ tool: 'job_status', input: { id: 'build-7' }, output: `${step * 15}% done`, error: false }] })),
    { step: 6, kind: 'stop', exit: 'limit', rule: 'max_steps', reason: 'max_steps' },
  ),
  route(
    'a done code verified, after one it rejected',
    [
      { step: 1, output: 'Wrote the report.', signal: { kind: 'done', note: 'report' }, verification: { ok: false, unmet: ['cites the survey'] } },
      { step: 2, output: 'Cited the survey.', signal: { kind: 'done', note: 'report' }, verification: { ok: true } },
    ],
    { step: 2, kind: 'stop', exit: 'success', rule: 'verified_done', reason: 'verified_done' },
  ),
  route(
    'a question for a person ends the graph at the human node',
    [
      { step: 1, output: 'Looked up the refund.' },
      { step: 2, output: 'Above my limit.', signal: { kind: 'need_help', note: 'Approve 1,800 EUR?' } },
    ],
    { step: 2, kind: 'stop', exit: 'need_help', rule: 'need_help', reason: 'agent_needs_help' },
  ),
  route(
    'the step cap of a graph whose model never says done',
    [1, 2, 3, 4].map((step) => ({ step, output: `Searching ${step}.` })),
    { step: 4, kind: 'stop', exit: 'limit', rule: 'max_steps', reason: 'max_steps' },
  ),
];
