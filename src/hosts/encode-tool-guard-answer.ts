import type { HookHost } from './hook-host.js';
import type { ToolGuardAnswer } from './tool-event.js';

/** A Claude Code or Codex `PreToolUse` answer: context for the agent, or a refusal with its reason. Never `allow`. */
export interface PreToolUseOutput {
  readonly hookSpecificOutput: {
    readonly hookEventName: 'PreToolUse';
    readonly additionalContext?: string;
    readonly permissionDecision?: 'deny';
    readonly permissionDecisionReason?: string;
  };
}

/** A Cursor `beforeShellExecution` / `beforeMCPExecution` refusal: a line for the person and the reason for the agent. */
export interface CursorBeforeExecutionOutput {
  readonly permission: 'deny';
  readonly user_message: string;
  readonly agent_message: string;
}

/** What a tool hook prints: the JSON answer, or `undefined` for no output at all (the call goes on as the host would run it). */
export type ToolGuardOutput = PreToolUseOutput | CursorBeforeExecutionOutput | undefined;

/**
 * Encodes a tool guard's answer for the event it answers. Nothing to say is no
 * output at all, on every host and event: an `allow` would skip the user's
 * permission prompt. Claude Code and Codex: context as
 * `hookSpecificOutput.additionalContext`, a refusal as `permissionDecision:
 * "deny"` with `permissionDecisionReason`, both on `PreToolUse` only. Cursor: a
 * refusal as `permission: "deny"` with `agent_message` on a `before...` event;
 * Cursor has no context without a decision, so a nudge there is no output (the
 * hook writes it on stderr). After-events answer nothing.
 */
export function encodeToolGuardAnswer(host: HookHost, eventName: string, answer: ToolGuardAnswer): ToolGuardOutput {
  if (answer.kind === 'none') return undefined;
  if (host === 'cursor') {
    if (answer.kind !== 'deny' || !eventName.startsWith('before')) return undefined;
    return { permission: 'deny', user_message: 'stopwise refused a repeating call; the agent was told why.', agent_message: answer.reason };
  }
  if (eventName !== 'PreToolUse') return undefined;
  if (answer.kind === 'context') return { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: answer.message } };
  return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: answer.reason } };
}
