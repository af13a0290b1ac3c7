export { HOOK_HOSTS, isHookHost, isStopEventName } from './hook-host.js';
export type { HookHost } from './hook-host.js';
export {
  parseStopHookInput,
  stopHookSessionId,
  stopHookWorkingDirectory,
  hostSignalsReentry,
} from './stop-hook-input.js';
export type { StopHookInput } from './stop-hook-input.js';
export { decideStopHook, isStopHookBlock, HUMAN_REVIEW_NOTE } from './decide-stop-hook.js';
export type {
  StopHookDecision,
  StopHookBlock,
  StopHookHandoff,
  StopHookCheck,
  DecideStopHookOptions,
} from './decide-stop-hook.js';
export { toStopHookDecision } from './to-stop-hook-decision.js';
export type { StopHookFacts } from './to-stop-hook-decision.js';
export { decideStopAttempt } from './decide-stop-attempt.js';
export type { StopAttemptParts, StopAttemptResult } from './decide-stop-attempt.js';
export { hookPolicy } from './hook-policy.js';
export { blockReasonFromCompletion } from './block-reason.js';
export type { UnmetCompletion } from './block-reason.js';
export { encodeClaudeCodeOutput } from './encode-claude-code-output.js';
export type { ClaudeCodeStopOutput, ClaudeCodeOutputOptions } from './encode-claude-code-output.js';
export { encodeCodexOutput } from './encode-codex-output.js';
export type { CodexStopOutput, CodexOutputOptions } from './encode-codex-output.js';
export { encodeCursorOutput } from './encode-cursor-output.js';
export type { CursorStopOutput, CursorOutputOptions } from './encode-cursor-output.js';
export { encodeCopilotOutput } from './encode-copilot-output.js';
export type { CopilotStopOutput, CopilotOutputOptions } from './encode-copilot-output.js';
export { encodeGeminiOutput } from './encode-gemini-output.js';
export type { GeminiStopOutput, GeminiOutputOptions } from './encode-gemini-output.js';
export {
  parseStopwiseConfig,
  CONFIG_FILE_NAME,
  DEFAULT_TEST_TIMEOUT_MS,
  DEFAULT_JUDGE_TIMEOUT_MS,
  DEFAULT_STATE_DIR,
  MAX_TIMEOUT_MS,
} from './stopwise-config.js';
export type { StopwiseConfig, TestCommandConfig, TestReportFormat, JudgeConfig } from './stopwise-config.js';
export { loadStopwiseConfig } from './load-stopwise-config.js';
export type { LoadedStopwiseConfig } from './load-stopwise-config.js';
export {
  initialHookSessionState,
  beginStopAttempt,
  isReentry,
  recordStopOutcome,
  parseHookSessionState,
  sessionStopState,
} from './hook-session-state.js';
export type { HookSessionState, StopAttempt, StopOutcomeKind } from './hook-session-state.js';
export { runStopHook } from './run-stop-hook.js';
export { stopHookDeadlineMs, hostTimeoutSeconds } from './hook-deadline.js';
export type { HookTimeouts } from './hook-deadline.js';
export { stopHookCommand } from './install-stop-hook.js';
export type { StopHookRun, RunStopHookOptions } from './run-stop-hook.js';
export type { HookTestRunner, HookTestResult } from './hook-test-runner.js';
export { stallStepFromPostToolUse } from './post-tool-use-stall-step.js';
export type { PostToolUsePayloadLike } from './post-tool-use-stall-step.js';
export type { ToolEvent, ToolGuardAnswer } from './tool-event.js';
export { guardToolEvent } from './guard-tool-event.js';
export type { GuardedToolEvent } from './guard-tool-event.js';
export { initialToolGuardState, parseToolGuardState } from './tool-guard-state.js';
export type { ToolGuardState, RecordedCall, ToolGuardHandOff, ToolGuardLadderState } from './tool-guard-state.js';
export { parseToolGuardOptions, DEFAULT_TOOL_GUARD_OPTIONS } from './tool-guard-options.js';
export type { ToolGuardOptions, ToolGuardLadder } from './tool-guard-options.js';
export { parseToolHookInput } from './read-hook-event.js';
export type { ToolHookInput } from './parse-tool-hook-input.js';
export { encodeToolGuardAnswer } from './encode-tool-guard-answer.js';
export type { ToolGuardOutput, PreToolUseOutput, CursorBeforeExecutionOutput } from './encode-tool-guard-answer.js';
export { runToolHook } from './run-tool-hook.js';
export type { ToolHookRun, RunToolHookOptions } from './run-tool-hook.js';
export { answerToolEvent } from './answer-tool-event.js';
export type { ToolGuardContext } from './answer-tool-event.js';
export { hostBlockCap, applyHostBlockCap, COPILOT_BLOCK_CAP, GEMINI_TURN_CAP, CLAUDE_CODE_DEFAULT_BLOCK_CAP } from './host-block-cap.js';
export type { HostBlockCap, CappedStopDecision, RunEndedBy } from './host-block-cap.js';
