import { readCopilotHookEvent } from './copilot-hook-event.js';
import { encodeCopilotToolAnswer, type CopilotToolEventName } from './encode-copilot-tool-answer.js';
import { encodeGeminiToolAnswer, type GeminiToolEventName } from './encode-gemini-tool-answer.js';
import { readGeminiHookEvent } from './gemini-hook-event.js';
import type { HookHost } from './hook-host.js';
import type { HostHookEvent } from './host-hook-event.js';
import type { ToolGuardAnswer } from './tool-event.js';
import type { ToolHookOutput } from './tool-hook-output.js';

/** The hosts whose `stopwise hook` answers tool events as well as stops. */
export type ToolEventHost = 'copilot' | 'gemini';

const TOOL_EVENT_HOSTS: ReadonlySet<HookHost> = new Set<HookHost>(['copilot', 'gemini']);
const COPILOT_TOOL_EVENTS: ReadonlySet<string> = new Set<CopilotToolEventName>(['preToolUse', 'postToolUse', 'postToolUseFailure']);
const GEMINI_TOOL_EVENTS: ReadonlySet<string> = new Set<GeminiToolEventName>(['BeforeTool', 'AfterTool']);

/** True for a host whose hook payloads are read for tool events. */
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

/** Encodes a tool guard's answer to the host's tool event `event` (a name its reader gave). */
export function encodeHostToolAnswer(host: ToolEventHost, event: string, answer: ToolGuardAnswer): ToolHookOutput {
  switch (host) {
    case 'copilot':
      if (!COPILOT_TOOL_EVENTS.has(event)) throw new TypeError(`not a Copilot tool event: ${event}`);
      return encodeCopilotToolAnswer(event as CopilotToolEventName, answer);
    case 'gemini':
      if (!GEMINI_TOOL_EVENTS.has(event)) throw new TypeError(`not a Gemini tool event: ${event}`);
      return encodeGeminiToolAnswer(event as GeminiToolEventName, answer);
  }
}
