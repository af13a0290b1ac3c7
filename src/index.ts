export {
  MIN_CRITERION_PROBABILITY,
  MID_BAND_LOW,
  MAX_AGENT_STEPS,
  STALL_ROUNDS,
  DEFAULT_POLICY,
  createStopPolicy,
} from './core/stop-policy.js';
export type { StopPolicy } from './core/stop-policy.js';
export type { TestEvidence, TestFailure } from './core/test-evidence.js';
export { minCriterionProbability, lowestCriterion } from './core/criterion-probabilities.js';
export type { CriterionProbabilities, LowestCriterion } from './core/criterion-probabilities.js';
export { combineDoneSignal } from './core/combine-done-signal.js';
export type { DoneSignal } from './core/combine-done-signal.js';
export { decideFromEvidence, decideCompletionAction } from './core/decide-completion-action.js';
export { describeAction } from './core/describe-action.js';
export { decide, needsJudgement } from './core/policy/decide.js';
export { initialStopState, STOP_STATE_VERSION } from './core/policy/stop-state.js';
export type { StopState, StopStateCore, StopTotals } from './core/policy/stop-state.js';
export { parseStopPolicy } from './core/policy/parse-stop-policy.js';
export { StopPolicyError, isStopPolicyError } from './core/policy/stop-policy-error.js';
export { SEED_STOP_POLICY, seedStopPolicy } from './core/policy/seed-stop-policy.js';
export { HOOK_STOP_POLICY, hookStopPolicy } from './core/policy/hook-stop-policy.js';
export type { HookStopPolicyOptions } from './core/policy/hook-stop-policy.js';
export { toCompletionAction } from './core/policy/to-completion-action.js';
export { describeDecision } from './core/policy/describe-decision.js';
export { agentLoopPolicy, policyBudgetLimits } from './core/policy/agent-loop-policy.js';
export type { HumanTimeoutPolicy } from './core/policy/agent-loop-policy.js';
export { toStopOutcome } from './core/policy/to-stop-outcome.js';
export type { StopOutcomeFacts, StopDecisionOf } from './core/policy/to-stop-outcome.js';
export { formatUnmet } from './core/policy/compile-stop-policy.js';
export {
  STOP_POLICY_VERSION,
  LIMIT_NAMES,
  TEST_STATES,
  SIGNAL_STATES,
  HUMAN_STATES,
  JUDGE_STATES,
  STALL_DETECTORS,
  CONDITION_KINDS,
} from './core/policy/stop-policy-document.js';
export type {
  StopPolicyDocument,
  StopRule,
  StopRuleOutcome,
  StopCondition,
  CriteriaCondition,
  LimitName,
  TestState,
  SignalState,
  HumanState,
  JudgeState,
  StallDetectorName,
  ConditionKind,
  StepHistoryCondition,
} from './core/policy/stop-policy-document.js';
export type { StopEvent, StopEventUsage, StopEventHuman } from './core/policy/stop-event.js';
export type {
  StopDecision,
  StopDecisionKind,
  StopDecisionBase,
  DecideResult,
  DecisionValue,
  DecisionValues,
  DecisionTraceEntry,
  UnmetCondition,
  RetryFeedback,
} from './core/policy/stop-decision.js';
export type {
  CompletionAction,
  CompletionActionKind,
  CompletionReason,
  EvidenceAction,
  StopDoneAction,
  RetryAction,
  HandoffHumanAction,
  HardCapValues,
  StalledValues,
  NoTestsValues,
  JudgedValues,
  FailedTestsValues,
} from './core/completion-action.js';
export { initialLoopState, advanceLoopState } from './core/agent-loop-state.js';
export type { AgentLoopState } from './core/agent-loop-state.js';
export { fingerprintProgress } from './core/fingerprint.js';
export { isStalled, appendFingerprint } from './core/stall.js';
export { initialStallState } from './core/stall-detection/stall-state.js';
export type { StallState, StallStreak, StallCheck } from './core/stall-detection/stall-state.js';
export { observeStep, detectStall } from './core/stall-detection/observe-step.js';
export type { ObservedStep } from './core/stall-detection/observe-step.js';
export type { StepDigest } from './core/stall-detection/step-digest.js';
export { DEFAULT_STALL_OPTIONS, resolveStallOptions, STALL_OPTION_PATTERN_KEYS } from './core/stall-detection/stall-options.js';
export type { StallOptions, StallOptionsInput, ToolIdentity } from './core/stall-detection/stall-options.js';
export { STALL_PATTERNS } from './core/stall-detection/stall-pattern.js';
export type { StallPattern } from './core/stall-detection/stall-pattern.js';
export type { StallFinding } from './core/stall-detection/stall-finding.js';
export type { StallStep } from './core/stall-detection/stall-step.js';
export { normalizeOutput } from './core/stall-detection/normalize-output.js';
export { checkBudget, remainingBudget, addUsage, emptyUsage } from './core/budget.js';
export type {
  BudgetLimits,
  BudgetUsage,
  StepUsage,
  BudgetLimitKind,
  BudgetCheck,
  BudgetRemaining,
} from './core/budget.js';
export { isWrapUpTurn } from './core/wrap-up.js';
export { formatCost } from './core/format-cost.js';
export { FINISH_KINDS } from './core/finish-signal.js';
export type { FinishKind, FinishSignal } from './core/finish-signal.js';
export type { LoopStop, RefusalDetails } from './core/loop-stop.js';
export { STOP_EXITS, stopReasonOf } from './core/stop-outcome.js';
export type {
  StopExit,
  StopOutcome,
  SuccessOutcome,
  LimitOutcome,
  GaveUpOutcome,
  NeedHelpOutcome,
  FailedOutcome,
  OutcomeBase,
  OutcomeError,
  FailurePhase,
  TurnRecord,
  TurnDecision,
  TurnUsage,
  HumanExchange,
  Verification,
} from './core/stop-outcome.js';
export type { EvaluatedRun, EvaluatedOutcome } from './core/evaluated-run.js';
export { toOutcomeRecord } from './core/outcome-record.js';
export type { OutcomeRecord, OutcomeRecordFields, RecordedOutcome } from './core/outcome-record.js';
export { summarizeOutcomes } from './core/summarize-outcomes.js';
export type { OutcomeSummary } from './core/summarize-outcomes.js';
export { suggestLimits } from './core/suggest-limits.js';
export type { SuggestLimitsOptions, LimitSuggestion } from './core/suggest-limits.js';
export {
  FINISH_TOOL_NAME,
  finishToolInputSchema,
  anthropicFinishTool,
  openAIFinishTool,
  openAIResponsesFinishTool,
  finishToolZodSchema,
  aiSdkFinishTool,
} from './loop/finish-tool.js';
export { parseFinishSignal } from './loop/parse-finish-signal.js';
export type { FinishSignalResult, FinishSignalError } from './loop/parse-finish-signal.js';
export type { FinishToolInputSchema } from './loop/finish-tool.js';
export { runAgentLoop, DEFAULT_HUMAN_TIMEOUT_MS } from './loop/run-agent-loop.js';
export { runManualCompletionLoop } from './loop/run-manual-completion-loop.js';
export type { ManualCompletionLoopOptions } from './loop/run-manual-completion-loop.js';
export type { CompletionDecision, CompletionLoopResult, RetryFeedback as CompletionRetry } from './loop/completion-loop.js';
export { describeRetry } from './loop/describe-retry.js';
export type { RetryDetails } from './loop/describe-retry.js';
export type {
  RunAgentLoopOptions,
  TurnState,
  TurnResult,
  DoneClaim,
  LoopCallContext,
  JudgementRequest,
} from './loop/run-agent-loop.js';
export { booleanQuestion, doneCriteria } from './judge/boolean-question.js';
export type {
  BooleanCriteria,
  CriterionText,
  BooleanQuestion,
  EvaluationState,
  EvaluationQuestions,
  EvaluationRequest,
  EvaluateOptions,
  EvaluationUsage,
  EvaluationAnswer,
  EvaluationResult,
  EvaluationClient,
} from './judge/evaluation-client.js';
export { EvaluationError, isEvaluationError, isRetryableEvaluationError } from './judge/evaluation-error.js';
export type { EvaluationErrorKind, EvaluationErrorOptions, EvaluationErrorJson } from './judge/evaluation-error.js';
export { validateEvaluationResult } from './judge/validate-evaluation-result.js';
export type { ValidatedEvaluation } from './judge/validate-evaluation-result.js';
export { createCompletionRequest } from './judge/completion-request.js';
export type { CompletionInput, CompletionState, CompletionRequest } from './judge/completion-request.js';
export { checkCompletion } from './judge/check-completion.js';
export type { CompletionCheck, CompletionCheckInput, EvaluatedProbabilities } from './judge/check-completion.js';
export { decideCompletionAfterEvaluate } from './judge/decide-completion-after-evaluate.js';
export type { CompletionStepInput, EvaluatedCompletionAction } from './judge/decide-completion-after-evaluate.js';
export { createCachedClient } from './judge/cached-client.js';
export type { CachedClient, CachedClientOptions } from './judge/cached-client.js';
export { createConfiguredClient, DECISION_MODEL_CLIENTS } from './judge/create-configured-client.js';
export type {
  DecisionModelConfig,
  DecisionModelClientName,
  ConfiguredClient,
  ConfiguredClientOptions,
} from './judge/create-configured-client.js';
export { estimateEvaluationCost } from './judge/estimate-evaluation-cost.js';
export type { EvaluationPricing, EvaluationCostEstimate } from './judge/estimate-evaluation-cost.js';
export { parseRunTrace } from './replay/run-trace.js';
export type { RunTrace, RunTraceHeader, RunTraceStep, RunTraceError, RunTraceResult } from './replay/run-trace.js';
export { replayRun, summarizeReplays } from './replay/replay-run.js';
export type { ReplayResult, ReplayedStep, ReplaySummary } from './replay/replay-run.js';
export { setStopObserver, notifyStopEnd } from './core/stop-observer.js';
export type { StopObserver, StopRunEnd, StopDriver, JudgeCallNotice } from './core/stop-observer.js';
export { toExternalStopReason, fromExternalStopReason, STOP_VOCABULARIES } from './core/external-stop-reason.js';
export type {
  StopVocabulary,
  ExternalStopVocabularies,
  StopMeaning,
  ClaudeAgentSdkSubtype,
  A2aTaskState,
  AcpStopReason,
  InspectLimit,
  OpenHandsStatus,
  GenAiAgentFinishReason,
} from './core/external-stop-reason.js';
