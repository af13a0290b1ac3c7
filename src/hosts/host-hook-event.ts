import { describeValue } from '../core/describe-value.js';
import type { ToolEvent } from './tool-event.js';

/**
 * What one hook invocation is about, read from its payload: the end of the
 * agent's turn (`stop`, answered by the stop hook), a tool call (`tool`, with
 * the host's name of its event, which decides how an answer is encoded), or
 * an event stopwise does not answer (`other`, answered with nothing).
 */
export type HostHookEvent =
  | { readonly kind: 'stop' }
  | { readonly kind: 'tool'; readonly name: string; readonly event: ToolEvent }
  | { readonly kind: 'other'; readonly name: string };

/** The payload as an object; a `TypeError` naming what it got otherwise. */
export function payloadRecord(raw: unknown, host: string): Readonly<Record<string, unknown>> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new TypeError(`${host} hook input must be a JSON object, got ${describeValue(raw)}`);
  }
  return raw as Record<string, unknown>;
}

/** The first of `keys` that holds a string. */
export function stringField(record: Readonly<Record<string, unknown>>, ...keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/** The tool name of a tool event: a non-empty string, else a `TypeError` saying which field is wrong. */
export function requireToolName(record: Readonly<Record<string, unknown>>, event: string, ...keys: readonly string[]): string {
  const name = stringField(record, ...keys);
  if (name === undefined || name.trim() === '') {
    const got = keys.map((key) => record[key]).find((value) => value !== undefined);
    throw new TypeError(`${event} input needs the tool's name in "${keys[0]}" (a non-empty string), got ${describeValue(got)}`);
  }
  return name;
}

/** A tool call id, when the payload names one under any of `keys`. */
export function callIdField(record: Readonly<Record<string, unknown>>, ...keys: readonly string[]): { readonly callId?: string } {
  const id = stringField(record, ...keys);
  return id === undefined || id === '' ? {} : { callId: id };
}

/** Text joined from a value hosts use for tool results: a string, a list of parts with `text`, or a part. */
export function resultText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const parts = value.map(resultText).filter((part): part is string => part !== undefined);
    return parts.length === 0 ? undefined : parts.join('\n');
  }
  if (typeof value === 'object' && value !== null) {
    const text = (value as Record<string, unknown>).text;
    return typeof text === 'string' ? text : undefined;
  }
  return undefined;
}
