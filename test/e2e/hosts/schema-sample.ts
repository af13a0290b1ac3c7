/**
 * A small value that fits a JSON schema, for the structured answers hosts ask
 * of their utility calls (Gemini CLI's model router, its next-speaker and
 * loop checks): the first choice of every union and enum, the minimum of a
 * number, `ok` for a string; a property named in `prefer` takes that value.
 */
export function sampleOfSchema(schema: unknown, prefer: Readonly<Record<string, unknown>> = {}): unknown {
  if (typeof schema !== 'object' || schema === null) return null;
  const s = schema as { anyOf?: unknown[]; oneOf?: unknown[]; enum?: unknown[]; type?: unknown; properties?: Record<string, unknown>; minimum?: unknown };
  const union = s.anyOf ?? s.oneOf;
  if (union !== undefined) return sampleOfSchema(union[0], prefer);
  if (s.enum !== undefined) return s.enum[0];
  const type = String(Array.isArray(s.type) ? s.type[0] : (s.type ?? '')).toLowerCase();
  if (type === 'object' || s.properties !== undefined) {
    return Object.fromEntries(Object.entries(s.properties ?? {}).map(([key, sub]) => [key, key in prefer ? prefer[key] : sampleOfSchema(sub, prefer)]));
  }
  if (type === 'array') return [];
  if (type === 'string') return 'ok';
  if (type === 'integer' || type === 'number') return typeof s.minimum === 'number' ? s.minimum : 0;
  if (type === 'boolean') return false;
  return null;
}
