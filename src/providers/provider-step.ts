import type { FinishSignal } from '../core/finish-signal.js';
import { parseFinishSignal } from './parse-finish-signal.js';

/**
 * What a loop does after one generation, with the provider's raw value kept
 * beside it: run one tool (`call`), send the content back and go on
 * (`resume`), or let the stop engine decide the step (`end`): `signal` is the
 * model's finish signal (a `finish` call, or `give_up` when it stopped without
 * one), `provider` says the provider's own limit cut the generation short or
 * that it could not be read, with why in `detail`. The fields of `end` are
 * the event's (`signal`, `provider`) and `runAgentLoop`'s turn result's.
 */
export type GenerationStep<Raw = unknown> =
  | { readonly type: 'call'; readonly tool: string; readonly args: unknown; readonly id?: string; readonly raw: Raw }
  | { readonly type: 'resume'; readonly raw: Raw }
  | {
      readonly type: 'end';
      readonly signal?: FinishSignal;
      readonly provider?: { readonly stop: 'token_limit' | 'step_limit' | 'failed'; readonly detail: string };
      readonly raw: Raw;
    };

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

  /** True for a `ProviderStopError`, also one from another copy of this package. */
  static isInstance(value: unknown): value is ProviderStopError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}

/** The one tool call of a generation: `finish` ends the step with its signal, anything else is a call. */
export function toolCallStep<Raw>(name: string, args: unknown, id: string | undefined, raw: Raw): GenerationStep<Raw> {
  if (name === 'finish') return finishStep(args, raw);
  return id === undefined ? { type: 'call', tool: name, args, raw } : { type: 'call', tool: name, args, id, raw };
}

/** A generation the provider's own limit cut short, or one that could not be read. */
export function providerStep<Raw>(stop: 'token_limit' | 'step_limit' | 'failed', detail: string, raw: Raw): GenerationStep<Raw> {
  return { type: 'end', provider: { stop, detail }, raw };
}

/** A generation that ended without a `finish` call (text, a refusal, filtered content): the model gives up, saying why. */
export function giveUpStep<Raw>(note: string, raw: Raw): GenerationStep<Raw> {
  return { type: 'end', signal: { kind: 'give_up', note }, raw };
}

/** The note of a generation that ended with text and no `finish` call. */
export const STOPPED_WITHOUT_FINISH = 'model stopped without finish';

/**
 * The step of a `finish` tool input: `{ summary }` (no `kind`) is done with
 * that summary (`''` when not a string); `{ kind, note }` is the signal it
 * says; anything invalid is a generation that could not be read.
 */
function finishStep<Raw>(input: unknown, raw: Raw): GenerationStep<Raw> {
  if (typeof input === 'object' && input !== null && !Array.isArray(input) && !('kind' in input)) {
    const summary = (input as { summary?: unknown }).summary;
    return { type: 'end', signal: { kind: 'done', note: typeof summary === 'string' ? summary : '' }, raw };
  }
  const parsed = parseFinishSignal(input);
  return parsed.ok ? { type: 'end', signal: parsed.signal, raw } : providerStep('failed', `invalid finish input: ${parsed.error.message}`, raw);
}

/** Parses a JSON string of tool arguments; the parse error when it is not JSON. */
export function parseToolArguments(text: unknown): { readonly ok: true; readonly args: unknown } | { readonly ok: false; readonly error: string } {
  if (typeof text !== 'string') return { ok: false, error: `tool arguments must be a JSON string, got ${text === null ? 'null' : typeof text}` };
  try {
    return { ok: true, args: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: `tool arguments are not valid JSON: ${(error as Error).message}` };
  }
}
