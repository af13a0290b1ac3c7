import { readCopilotHookEvent } from './copilot-hook-event.js';
import { encodeCopilotToolAnswer, type CopilotToolEventName } from './encode-copilot-tool-answer.js';
import { encodeGeminiToolAnswer, type GeminiToolEventName } from './encode-gemini-tool-answer.js';
import { encodeToolGuardAnswer } from './encode-tool-guard-answer.js';
import { readGeminiHookEvent } from './gemini-hook-event.js';
import type { HookHost } from './hook-host.js';
import type { HostHookEvent } from './host-hook-event.js';
import { isToolEventName } from './parse-tool-hook-input.js';
import type { ToolGuardAnswer } from './tool-event.js';
import type { ToolHookOutput } from './tool-hook-output.js';

/**
 * The hosts that send every event, a stop or a tool call, through one hook
 * entry, so that the payload is read whole to tell which (Claude Code, Codex
 * and Cursor have an entry per event).
 */
export type ToolEventHost = 'copilot' | 'gemini';

const TOOL_EVENT_HOSTS: ReadonlySet<HookHost> = new Set<HookHost>(['copilot', 'gemini']);
const COPILOT_TOOL_EVENTS: ReadonlySet<string> = new Set<CopilotToolEventName>(['preToolUse', 'postToolUse', 'postToolUseFailure']);
const GEMINI_TOOL_EVENTS: ReadonlySet<string> = new Set<GeminiToolEventName>(['BeforeTool', 'AfterTool']);

/** True for a host that sends every event through one hook entry (Copilot, Gemini). */
export function hasToolEvents(host: HookHost): host is ToolEventHost {
  return TOOL_EVENT_HOSTS.has(host);
}

/** Reads a hook payload of `host` (already parsed from JSON): a stop, a tool event or another event; a `TypeError` when it is unreadable. */
export function readHostHookEvent(host: ToolEventHost, raw: unknown): HostHookEvent {
  switch (host) {
    case 'copilot':
      return readCopilotHookEvent(raw);
    case 'gemini':
      return readGeminiHookEvent(raw);
  }
}

/**
 * Encodes a tool guard's answer to a tool event of `host` (the event name
 * its reader gave), for any host: Claude Code, Codex and Cursor through
 * `encodeToolGuardAnswer` (a Cursor nudge, which Cursor has no field for,
 * goes on stderr), Copilot and Gemini through their own encoders, which may
 * answer with an exit code and stderr. A `TypeError` for a name that is not a
 * tool event of the host.
 */
export function encodeHostToolAnswer(host: HookHost, event: string, answer: ToolGuardAnswer): ToolHookOutput {
  switch (host) {
    case 'copilot':
      if (!COPILOT_TOOL_EVENTS.has(event)) throw new TypeError(`not a Copilot tool event: ${event}`);
      return encodeCopilotToolAnswer(event as CopilotToolEventName, answer);
    case 'gemini':
      if (!GEMINI_TOOL_EVENTS.has(event)) throw new TypeError(`not a Gemini tool event: ${event}`);
      return encodeGeminiToolAnswer(event as GeminiToolEventName, answer);
    default: {
      if (!isToolEventName(host, event)) throw new TypeError(`not a ${host} tool event: ${event}`);
      const output = encodeToolGuardAnswer(host, event, answer);
      return {
        exitCode: 0,
        ...(output === undefined ? {} : { stdout: { ...output } }),
        ...(host === 'cursor' && answer.kind === 'context' ? { stderr: answer.message } : {}),
      };
    }
  }
}
