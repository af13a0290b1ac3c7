import type { ToolIdentity } from './stall-options.js';

/**
 * The text that identifies a call: the tool name and its input as canonical
 * JSON (keys sorted at every level), restricted to the declared arguments when
 * the tool has an identity.
 */
export function callKey(tool: string, input: unknown, identity: ToolIdentity | undefined): string {
  let value = input;
  const keys = identity?.arguments;
  if (keys !== undefined && typeof input === 'object' && input !== null && !Array.isArray(input)) {
    const picked: Record<string, unknown> = {};
    for (const key of keys) if (Object.hasOwn(input, key)) picked[key] = (input as Record<string, unknown>)[key];
    value = picked;
  }
  return `${tool.length}:${tool}\n${canonicalJson(value)}`;
}

const MAX_DEPTH = 32;

function canonicalJson(value: unknown, depth = 0): string {
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
