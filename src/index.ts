/**
 * stopwise: decide when an AI agent loop should stop, and in which state.
 * `decide(policy, state, event)` is the one engine; the seed's functions are
 * its projections, `runAgentLoop` drives a loop with it. Everything more
 * specialised lives in a subpath: `stopwise/ai-sdk`, `stopwise/langgraph`,
 * `stopwise/hosts`, `stopwise/providers`, `stopwise/evidence`,
 * `stopwise/calibrate`, `stopwise/report`, `stopwise/otel`, the
 * decision-model clients and `stopwise/testing`.
 *
 * @module
 */
export { decide, initialStopState, needsJudgement } from './core/policy/decide.js';
export type { StopState } from './core/policy/stop-state.js';
export { parseStopPolicy } from './core/policy/parse-stop-policy.js';
export { StopPolicyError } from './core/policy/stop-policy-error.js';
export { SEED_STOP_POLICY, seedStopPolicy } from './core/policy/seed-stop-policy.js';
export { HOOK_STOP_POLICY, hookStopPolicy } from './core/policy/hook-stop-policy.js';
export { agentLoopPolicy } from './core/policy/agent-loop-policy.js';
export { describeDecision } from './core/policy/describe-decision.js';
export { toCompletionAction } from './core/policy/to-completion-action.js';
export type { StopPolicyDocument, StopRule, RuleCondition } from './core/policy/stop-policy-document.js';
export type { StopEvent } from './core/policy/stop-event.js';
export type { StopDecision, StopExit, DecideResult, RetryFeedback } from './core/policy/stop-decision.js';

export { MIN_CRITERION_PROBABILITY, MID_BAND_LOW, MAX_AGENT_STEPS, STALL_ROUNDS, DEFAULT_POLICY, createStopPolicy } from './core/stop-policy.js';
export type { StopPolicy } from './core/stop-policy.js';
export type { TestEvidence } from './core/test-evidence.js';
export type { CriterionProbabilities } from './core/criterion-probabilities.js';
export type { CompletionAction } from './core/completion-action.js';
export { decideCompletionAction } from './core/decide-completion-action.js';
export { combineDoneSignal } from './core/combine-done-signal.js';
export { isStalled } from './core/stall.js';
export { fingerprintProgress } from './core/fingerprint.js';
export { initialLoopState, advanceLoopState } from './core/agent-loop-state.js';
export type { AgentLoopState } from './core/agent-loop-state.js';
export { checkBudget } from './core/budget.js';
export type { BudgetLimits } from './core/budget.js';

export { checkCompletion } from './decision-model/check-completion.js';
export { decideCompletionAfterEvaluate } from './decision-model/decide-completion-after-evaluate.js';
export { booleanQuestion, doneCriteria } from './decision-model/boolean-question.js';
export { createConfiguredClient } from './decision-model/create-configured-client.js';
export type { DecisionModelClient } from './decision-model/decision-model-client.js';
export { DecisionModelError } from './decision-model/decision-model-error.js';

export { runAgentLoop } from './loop/run-agent-loop.js';
export type { RunAgentLoopOptions, TurnState, TurnResult } from './loop/run-agent-loop.js';
export { stopReasonOf } from './core/stop-outcome.js';
export type { StopOutcome } from './core/stop-outcome.js';
export type { FinishSignal } from './core/finish-signal.js';
export type { StallStep } from './core/stall-detection/stall-step.js';
