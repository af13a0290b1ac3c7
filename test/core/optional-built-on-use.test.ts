import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { optionalBuiltOnUse } from '../../src/core/optional-built-on-use.js';

describe('optionalBuiltOnUse', () => {
  it('builds its schema only when a value has the key, and reads as an optional key everywhere else', () => {
    let built = 0;
    const schema = z.strictObject({
      a: optionalBuiltOnUse(() => {
        built += 1;
        return z.string();
      }),
    });
    expect(schema.safeParse({}).success).toBe(true);
    expect(built).toBe(0);
    expect(schema.safeParse({ a: 'x' })).toEqual({ success: true, data: { a: 'x' } });
    expect(schema.safeParse({ a: 1 }).error?.issues.map((issue) => issue.path)).toEqual([['a']]);
    expect(built).toBe(1);
    expect(z.toJSONSchema(schema, { io: 'input' })).toMatchObject({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false });
    expect(z.toJSONSchema(schema, { io: 'input' })).not.toHaveProperty('required');
  });
});
