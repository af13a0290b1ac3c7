import type { StallStep } from '../core/stall-detection/stall-step.js';

/** The part of a PostToolUse hook payload (Claude Code, Codex) the adapter reads. */
export interface PostToolUsePayloadLike {
  readonly tool_name?: unknown;
  readonly tool_input?: unknown;
  readonly tool_response?: unknown;
}

/**
 * The stall step of a PostToolUse hook payload: the tool, its input, and its
 * response as text (a shell response's stdout and stderr, its exit code and
 * error flag when it has them). `undefined` when the payload names no tool.
 *
 * @see https://docs.anthropic.com/en/docs/claude-code/hooks#posttooluse-input
 */
export function stallStepFromPostToolUse(payload: PostToolUsePayloadLike): StallStep | undefined {
  if (typeof payload !== 'object' || payload === null || typeof payload.tool_name !== 'string') return undefined;
  const step: StallStep = { tool: payload.tool_name, input: payload.tool_input };
  const response = payload.tool_response;
  if (response === undefined || response === null) return step;
  if (typeof response === 'string') return { ...step, output: response };
  if (typeof response !== 'object') return { ...step, output: String(response) };
  const fields = response as Record<string, unknown>;
  const text = (key: string): string => (typeof fields[key] === 'string' ? (fields[key] as string) : '');
  const exit = [fields['exit_code'], fields['exitCode'], fields['returncode']].find((value) => typeof value === 'number') as number | undefined;
  const flag = [fields['is_error'], fields['isError'], fields['error']].find((value) => typeof value === 'boolean') as boolean | undefined;
  const failed = flag ?? (typeof fields['error'] === 'string' && fields['error'] !== '' ? true : undefined);
  const shell = text('stdout') !== '' || text('stderr') !== '' || 'stdout' in fields;
  const output = shell ? [text('stdout'), text('stderr')].filter((part) => part !== '').join('\n') : safeJson(response);
  return {
    ...step,
    output,
    ...(exit === undefined ? {} : { exitCode: exit }),
    ...(failed === undefined ? {} : { error: failed }),
  };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}
