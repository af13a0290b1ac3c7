import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseStopPolicy } from '../../../src/core/policy/parse-stop-policy.js';
import { SEED_STOP_POLICY } from '../../../src/core/policy/seed-stop-policy.js';
import { condition } from './arbitraries.js';

const schema = JSON.parse(readFileSync(join(import.meta.dirname, '../../../schemas/stop-policy.schema.json'), 'utf8')) as object;
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);

const parses = (value: unknown): boolean => {
  try {
    parseStopPolicy(value);
    return true;
  } catch {
    return false;
  }
};
const stop = { kind: 'stop', exit: 'success', reason: 'ok' };
const one = (when: unknown, then: unknown = stop) => ({ version: 1, rules: [{ id: 'r', when, then }] });

describe('the shipped JSON Schema of a stop policy', () => {
  it('accepts the presets and every policy parseStopPolicy accepts', () => {
    expect(validate(SEED_STOP_POLICY), JSON.stringify(validate.errors)).toBe(true);
    fc.assert(
      fc.property(fc.array(condition, { minLength: 1, maxLength: 4 }), (conditions) => {
        const value = { version: 1, name: 'random', rules: conditions.map((when, i) => ({ id: `r${i}`, when, then: i % 2 === 0 ? stop : { kind: 'retry', reason: 'again' } })) };
        expect(parses(value)).toBe(true);
        expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses what parseStopPolicy refuses, but for the checks across fields it leaves to the parser', () => {
    const refused = [
      { version: 2, rules: [] },
      { version: 1, rules: [] },
      { ...one({ always: true }), extra: 1 },
      one({ testz: 'failed' }),
      one({ tests: 'failed', signal: 'done' }),
      one({}),
      one({ tests: 'broken' }),
      one({ criteria: { gte: 1.5 } }),
      one({ criteria: { gte: 0.5, lt: 0.7 } }),
      one({ criteria: { criterion: 'a' } }),
      one({ limit: { of: 'steps', max: 0 } }),
      one({ limit: { of: 'steps', max: 2.5 } }),
      one({ limit: { of: 'dollars', max: 2 } }),
      one({ stall: { detector: 'identical_fingerprints', rounds: 0 } }),
      one({ always: false }),
      one({ atLeast: { count: 0, of: [{ always: true }] } }),
      one({ always: true }, { kind: 'halt' }),
      one({ always: true }, { kind: 'retry' }),
      one({ always: true }, { kind: 'stop', exit: 'done', reason: 'x' }),
      { version: 1, rules: [{ id: '', when: { always: true }, then: stop }] },
    ];
    for (const value of refused) {
      expect(parses(value), JSON.stringify(value)).toBe(false);
      expect(validate(value), JSON.stringify(value)).toBe(false);
    }
    const parserOnly = [
      { version: 1, rules: [{ id: 'x', when: { always: true }, then: stop }, { id: 'x', when: { always: true }, then: stop }] },
      one({ atLeast: { count: 3, of: [{ always: true }] } }),
      one({ criteria: { within: [0.7, 0.4] } }),
    ];
    for (const value of parserOnly) {
      expect(parses(value)).toBe(false);
      expect(validate(value)).toBe(true);
    }
  });

  it('never refuses a document the parser accepts, on mutated policies', () => {
    const junk = fc.oneof(fc.constant(null), fc.boolean(), fc.double(), fc.string({ maxLength: 6 }), fc.constantFrom('failed', 'done', 'stop', 'steps', 1, 0.5, [], {}));
    fc.assert(
      fc.property(condition, fc.array(fc.tuple(fc.nat(), junk), { maxLength: 3 }), (when, mutations) => {
        const value = JSON.parse(JSON.stringify(one(when))) as Record<string, unknown>;
        for (const [at, replacement] of mutations) {
          const holders: Record<string, unknown>[] = [];
          const walk = (node: unknown): void => {
            if (typeof node !== 'object' || node === null) return;
            holders.push(node as Record<string, unknown>);
            for (const child of Object.values(node)) walk(child);
          };
          walk(value);
          const holder = holders[at % holders.length] as Record<string, unknown>;
          const keys = Object.keys(holder);
          if (keys.length > 0) holder[keys[at % keys.length] as string] = replacement;
        }
        if (parses(value)) expect(validate(value), JSON.stringify(value)).toBe(true);
        if (!validate(value)) expect(parses(value)).toBe(false);
      }),
      { numRuns: 5000 },
    );
  });
});
