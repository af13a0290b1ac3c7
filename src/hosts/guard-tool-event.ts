import type { HookHost } from './hook-host.js';
import type { ToolEvent, ToolGuardAnswer } from './tool-event.js';

/** Where a tool event happened: the hook's working folder and environment. */
export interface ToolGuardContext {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

/**
 * The tool guard's answer to one tool event.
 *
 * PLACEHOLDER: on this branch the guard itself is not here yet, so this
 * function answers `{ kind: 'none' }` to every event (the tool call runs as
 * it would without stopwise). The host-agnostic tool guard (step records,
 * stall detection, the escalation ladder) replaces this function; the hosts'
 * parsers and encoders around it do not change.
 */
export async function guardToolEvent(host: HookHost, event: ToolEvent, context: ToolGuardContext): Promise<ToolGuardAnswer> {
  void host;
  void event;
  void context;
  return { kind: 'none' };
}
