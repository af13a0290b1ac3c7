import type { ToolIdentity } from './stall-options.js';

/**
 * The text that identifies a call: the tool name and its input as canonical
 * JSON (keys sorted at every level), restricted to the declared arguments when
 * the tool has an identity, without the top-level `ignored` keys (progress
 * notes such as `task_progress`, which change while the call does not).
 */
export function callKey(tool: string, input: unknown, identity: ToolIdentity | undefined, ignored: readonly string[] = []): string {
  let value = input;
  const keys = identity?.arguments;
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
    if (keys !== undefined) {
      const picked: Record<string, unknown> = {};
      for (const key of keys) if (Object.hasOwn(input, key)) picked[key] = (input as Record<string, unknown>)[key];
      value = picked;
    } else if (ignored.some((key) => Object.hasOwn(input, key))) {
      const kept: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(input)) if (!ignored.includes(key)) kept[key] = item;
      value = kept;
    }
  }
  return `${tool.length}:${tool}\n${canonicalJson(value)}`;
}

const MAX_DEPTH = 32;

/** A value as JSON with the keys of every object sorted (deeper than 32 levels cut): equal values, equal texts. */
export function canonicalJson(value: unknown, depth = 0): string {
  if (value === undefined) return 'undefined';
  if (depth > MAX_DEPTH) return '"<deep>"';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? String(value);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item, depth + 1)).join(',')}]`;
  const keys = Object.keys(value).sort();
  const parts: string[] = [];
  for (const key of keys) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) parts.push(`${JSON.stringify(key)}:${canonicalJson(item, depth + 1)}`);
  }
  return `{${parts.join(',')}}`;
}
