import { setOwnProperty } from '../core/own-property.js';

/** JSON with object keys sorted, so that key order does not change the text. */
export function canonicalJson(value: unknown): string {
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
    const sorted: Record<string, unknown> = {};
    for (const name of Object.keys(item).sort()) setOwnProperty(sorted, name, (item as Record<string, unknown>)[name]);
    return sorted;
  });
  if (typeof text !== 'string') throw new TypeError('a cached request must be JSON-serialisable');
  return text;
}
