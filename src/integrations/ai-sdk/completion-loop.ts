// The completion loop lives with runAgentLoop in src/loop; this module keeps its names where the AI SDK entry had them.
export { assertStepCap, driveCompletionLoop, resolveLoopPolicy } from '../../loop/completion-loop.js';
export type { CompletionDecision, CompletionLoopDriver, CompletionLoopResult, RetryFeedback, StepJudgement } from '../../loop/completion-loop.js';
