import type { ToolGuardAnswer } from './tool-event.js';
import type { ToolHookOutput } from './tool-hook-output.js';

/** The Copilot CLI tool events stopwise registers (camelCase names). */
export type CopilotToolEventName = 'preToolUse' | 'postToolUse' | 'postToolUseFailure';

/**
 * Encodes a tool guard's answer for a Copilot CLI tool event:
 * - `none`: nothing on stdout, exit 0 (Copilot's default permission flow;
 *   never `permissionDecision: "allow"`, which would skip the user's prompt);
 * - `deny` on `preToolUse`: `{ permissionDecision: "deny",
 *   permissionDecisionReason }`, the reason shown to the agent;
 * - `context` or `deny` on `postToolUseFailure`: exit 2 with the text on
 *   stderr, which Copilot returns to the agent as recovery guidance;
 * - `context` on `preToolUse`, anything on `postToolUse`: Copilot gives a
 *   command hook no channel for it (some versions read any JSON object on
 *   `preToolUse` as a denial; `postToolUse` output is read from SDK hooks
 *   only), so nothing goes on stdout and the text goes on stderr for the log.
 *
 * @see https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference
 */
export function encodeCopilotToolAnswer(event: CopilotToolEventName, answer: ToolGuardAnswer): ToolHookOutput {
  if (answer.kind === 'none') return { exitCode: 0 };
  const text = answer.kind === 'deny' ? answer.reason : answer.message;
  if (event === 'preToolUse' && answer.kind === 'deny') {
    return { exitCode: 0, stdout: { permissionDecision: 'deny', permissionDecisionReason: text } };
  }
  if (event === 'postToolUseFailure') return { exitCode: 2, stderr: text };
  return { exitCode: 0, stderr: `stopwise (not shown to the agent: Copilot reads no ${answer.kind} from a command hook on ${event}): ${text}` };
}
