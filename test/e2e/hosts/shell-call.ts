import { sampleOfSchema } from './schema-sample.js';
import type { ToolCall } from './model-turn.js';

/** The names under which the hosts offer their shell tool, in order of preference. */
export const SHELL_TOOL_NAMES: readonly string[] = ['Bash', 'bash', 'run_shell_command', 'shell', 'exec_command', 'shell_command'];

/** A tool a host offers the model: its name and the JSON schema of its input. */
export interface OfferedTool {
  readonly name: string;
  readonly schema: unknown;
}

/** True when the tools offered include a shell tool: the request is an agent turn, not a utility call. */
export function offersShell(tools: readonly OfferedTool[]): boolean {
  return tools.some((tool) => SHELL_TOOL_NAMES.includes(tool.name));
}

/**
 * A call of the host's shell tool running `command`, its input built from the
 * tool's schema: the command under `command` or `cmd` (an argv list when the
 * schema wants one), and a sample value for every other required field.
 */
export function shellCall(tools: readonly OfferedTool[], command: string): ToolCall {
  const tool = SHELL_TOOL_NAMES.map((name) => tools.find((offered) => offered.name === name)).find((offered) => offered !== undefined);
  if (tool === undefined) throw new Error(`no shell tool among the offered tools: ${tools.map((offered) => offered.name).join(', ')}`);
  const schema = (typeof tool.schema === 'object' && tool.schema !== null ? tool.schema : {}) as { properties?: Record<string, { type?: unknown }>; required?: string[] };
  const properties = schema.properties ?? {};
  const key = ['command', 'cmd'].find((name) => name in properties) ?? 'command';
  const input: Record<string, unknown> = { [key]: properties[key]?.type === 'array' ? ['bash', '-lc', command] : command };
  for (const name of schema.required ?? []) {
    if (name in input) continue;
    input[name] = name === 'description' ? 'run a command' : sampleOfSchema(properties[name]);
  }
  return { name: tool.name, input };
}
