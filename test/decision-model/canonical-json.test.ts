import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/decision-model/canonical-json.js';

describe('canonicalJson', () => {
  it('sorts object keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
  });

  it('keeps a key named __proto__ and drops undefined values', () => {
    expect(canonicalJson(JSON.parse('{"__proto__": 1, "a": 2}'))).toBe('{"__proto__":1,"a":2}');
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
  });

  it('refuses a value that is not JSON-serialisable', () => {
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
  });
});
