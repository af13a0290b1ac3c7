import type { LoopStop } from '../core/loop-stop.js';
import { parseFinishSignal } from '../loop/parse-finish-signal.js';

/**
 * What the loop does after one generation, with the provider's raw value kept
 * beside it: run one tool (`call`), stop (`halt`, with the loop's stop), or
 * send the content back and go on (`resume`).
 */
export type ProviderStep<Raw = unknown> =
  | { readonly type: 'call'; readonly tool: string; readonly args: unknown; readonly id?: string; readonly raw: Raw }
  | { readonly type: 'halt'; readonly stop: LoopStop; readonly raw: Raw }
  | { readonly type: 'resume'; readonly raw: Raw };

const MARKER = Symbol.for('stopwise.ProviderStopError');

/**
 * Thrown by `mapAnthropicStopReason` for the stop reasons its table says are
 * defects (zero or several tool calls, an unknown or null reason); `raw` is the
 * stop reason. A loop reports it as `failed`.
 */
export class ProviderStopError extends Error {
  override readonly name = 'ProviderStopError';
  readonly raw: unknown;
  readonly [MARKER] = true;

  constructor(message: string, raw: unknown) {
    super(message);
    this.raw = raw;
  }
}

/** True for a `ProviderStopError`, also one from another copy of this package. */
export function isProviderStopError(value: unknown): value is ProviderStopError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
}

/** The one tool call of a generation: `finish` becomes a halt, anything else a call. */
export function toolCallStep<Raw>(name: string, args: unknown, id: string | undefined, raw: Raw): ProviderStep<Raw> {
  if (name === 'finish') return { type: 'halt', stop: stopFromFinishInput(args), raw };
  return id === undefined ? { type: 'call', tool: name, args, raw } : { type: 'call', tool: name, args, id, raw };
}

/** A halt with `failed` and a message. */
export function failedStep<Raw>(error: string, raw: Raw): ProviderStep<Raw> {
  return { type: 'halt', stop: { kind: 'failed', error }, raw };
}

/** A halt with `blocked` and a reason. */
export function blockedStep<Raw>(reason: string, raw: Raw): ProviderStep<Raw> {
  return { type: 'halt', stop: { kind: 'blocked', reason }, raw };
}

/** The reason of a generation that ended with text and no `finish` call. */
export const STOPPED_WITHOUT_FINISH = 'model stopped without finish';

/**
 * The loop's stop for a `finish` tool input: `{ summary }` (no `kind`) is done
 * with that summary (`''` when not a string); `{ kind, note }` is done, blocked
 * (give_up) or need_help; anything invalid is failed.
 */
export function stopFromFinishInput(input: unknown): LoopStop {
  if (typeof input === 'object' && input !== null && !Array.isArray(input) && !('kind' in input)) {
    const summary = (input as { summary?: unknown }).summary;
    return { kind: 'done', summary: typeof summary === 'string' ? summary : '' };
  }
  const parsed = parseFinishSignal(input);
  if (!parsed.ok) return { kind: 'failed', error: `invalid finish input: ${parsed.error.message}` };
  const { kind, note } = parsed.signal;
  switch (kind) {
    case 'done':
      return { kind: 'done', summary: note };
    case 'give_up':
      return { kind: 'blocked', reason: note };
    case 'need_help':
      return { kind: 'need_help', question: note };
  }
}

/** Parses a JSON string of tool arguments; `undefined` with the parse error when it is not JSON. */
export function parseToolArguments(text: unknown): { readonly ok: true; readonly args: unknown } | { readonly ok: false; readonly error: string } {
  if (typeof text !== 'string') return { ok: false, error: `tool arguments must be a JSON string, got ${text === null ? 'null' : typeof text}` };
  try {
    return { ok: true, args: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: `tool arguments are not valid JSON: ${(error as Error).message}` };
  }
}
