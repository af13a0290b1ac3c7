import type { ToolGuardAnswer } from './tool-event.js';
import type { ToolHookOutput } from './tool-hook-output.js';

/** The Gemini CLI tool events stopwise registers. */
export type GeminiToolEventName = 'BeforeTool' | 'AfterTool';

/**
 * Encodes a tool guard's answer for a Gemini CLI tool event (JSON on stdout,
 * exit 0):
 * - `none`: nothing at all (the tool runs as it would without the hook);
 * - `deny` on `BeforeTool`: `{ decision: "deny", reason }`, the reason sent
 *   to the agent as the tool's error; the turn goes on;
 * - `context` on `BeforeTool`: Gemini reads no context there without
 *   refusing the call, so it is a `systemMessage`, shown to the person only;
 * - `context` or `deny` on `AfterTool` (the call already ran):
 *   `hookSpecificOutput.additionalContext`, appended to the tool's result
 *   for the agent; never `decision: "deny"` there, which would hide the
 *   real result from the agent.
 *
 * @see https://geminicli.com/docs/hooks/reference
 */
export function encodeGeminiToolAnswer(event: GeminiToolEventName, answer: ToolGuardAnswer): ToolHookOutput {
  if (answer.kind === 'none') return { exitCode: 0 };
  const text = answer.kind === 'deny' ? answer.reason : answer.message;
  if (event === 'AfterTool') return { exitCode: 0, stdout: { hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: text } } };
  if (answer.kind === 'deny') return { exitCode: 0, stdout: { decision: 'deny', reason: text } };
  return { exitCode: 0, stdout: { systemMessage: text } };
}
