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
export { hostBlockCap, effectiveMaxConsecutiveBlocks } from './host-block-cap.js';
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
