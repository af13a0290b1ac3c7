import type { StopHookDecision } from './decide-stop-hook.js';
import { encodeClaudeCodeOutput, type ClaudeCodeStopOutput } from './encode-claude-code-output.js';
import { encodeCodexOutput, type CodexStopOutput } from './encode-codex-output.js';
import { encodeCopilotOutput, type CopilotStopOutput } from './encode-copilot-output.js';
import { encodeCursorOutput, type CursorStopOutput } from './encode-cursor-output.js';
import { encodeGeminiOutput, type GeminiStopOutput } from './encode-gemini-output.js';
import type { HookHost } from './hook-host.js';

/** What a stop hook prints for a host: its JSON answer, or `undefined` for no output at all. */
export type HostStopOutput = ClaudeCodeStopOutput | CodexStopOutput | CursorStopOutput | CopilotStopOutput | GeminiStopOutput | undefined;

/** Encodes a stop hook decision in the format of `host` (see each host's encoder). */
export function encodeHostOutput(host: HookHost, decision: StopHookDecision, options: { readonly additionalContext?: string } = {}): HostStopOutput {
  switch (host) {
    case 'claude-code':
      return encodeClaudeCodeOutput(decision, options);
    case 'codex':
      return encodeCodexOutput(decision, options);
    case 'cursor':
      return encodeCursorOutput(decision, options);
    case 'copilot':
      return encodeCopilotOutput(decision, options);
    case 'gemini':
      return encodeGeminiOutput(decision, options);
  }
}
