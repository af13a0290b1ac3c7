import { describeValue } from '../core/describe-value.js';
import * as z from 'zod/mini';
import { FINISH_KINDS, type FinishSignal } from '../core/finish-signal.js';

/** Why a finish input was rejected: the field that was wrong, and a message that names it. */
export interface FinishSignalError {
  readonly field: string;
  readonly message: string;
}

/** The result of {@link parseFinishSignal}. */
export type FinishSignalResult =
  | { readonly ok: true; readonly signal: FinishSignal }
  | { readonly ok: false; readonly error: FinishSignalError };

const nonBlank = z.string().check(z.refine((note) => note.trim() !== '', { error: 'blank' }));
const inputSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('done'), note: z.optional(z.string()) }),
  z.strictObject({ kind: z.literal('give_up'), note: nonBlank }),
  z.strictObject({ kind: z.literal('need_help'), note: nonBlank }),
]);

/**
 * Validates untrusted `finish` tool input. A missing or empty note is
 * accepted only for `done` (it becomes `''`); `give_up` and `need_help` need
 * a non-blank note. Never throws.
 *
 * @example
 * parseFinishSignal({ kind: 'give_up', note: '' });
 * // { ok: false, error: { field: 'note', message: 'note: a give_up needs a non-empty note ...' } }
 */
export function parseFinishSignal(input: unknown): FinishSignalResult {
  const parsed = inputSchema.safeParse(input);
  if (parsed.success) return { ok: true, signal: { kind: parsed.data.kind, note: parsed.data.note ?? '' } };
  const issue = parsed.error.issues[0];
  return { ok: false, error: describeIssue(issue, input) };
}

function describeIssue(issue: z.core.$ZodIssue | undefined, input: unknown): FinishSignalError {
  const kind = isRecord(input) ? input['kind'] : undefined;
  if (issue === undefined || issue.path.length === 0) {
    if (issue?.code === 'unrecognized_keys') {
      const keys = issue.keys.map((key) => JSON.stringify(key)).join(', ');
      return { field: issue.keys[0] ?? 'input', message: `unknown field ${keys}: finish takes only kind and note` };
    }
    return { field: 'input', message: `input: expected an object { kind, note }, got ${describeValue(input)}` };
  }
  const field = String(issue.path[0]);
  if (field === 'kind') {
    return { field, message: `kind: expected one of ${FINISH_KINDS.map((k) => JSON.stringify(k)).join(', ')}, got ${show(kind)}` };
  }
  const note = isRecord(input) ? input['note'] : undefined;
  if (issue.code === 'custom' || note === undefined || note === '') {
    return { field, message: `note: a ${String(kind)} needs a non-empty note (${kind === 'give_up' ? 'what was tried and why it cannot work' : 'the question for a person'})` };
  }
  return { field, message: `note: expected a string, got ${describeValue(note)}` };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function show(value: unknown): string {
  return value === undefined ? 'nothing' : typeof value === 'string' ? JSON.stringify(value) : describeValue(value);
}
