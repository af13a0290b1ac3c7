import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { schemaFiles } from '../../../scripts/schema-files.js';
import { agentLoopPolicy } from '../../../src/core/policy/agent-loop-policy.js';
import { HOOK_STOP_POLICY } from '../../../src/core/policy/hook-stop-policy.js';
import { parseStopPolicy } from '../../../src/core/policy/parse-stop-policy.js';
import { SEED_STOP_POLICY } from '../../../src/core/policy/seed-stop-policy.js';
import { LIMIT_NAMES, PROVIDER_STATES, STOP_POLICY_VERSION } from '../../../src/core/policy/stop-policy-document.js';
import { CONDITION_KINDS } from '../../../src/core/policy/stop-policy-schema.js';
import { condition } from './arbitraries.js';

const shipped = readFileSync(join(import.meta.dirname, '../../../schemas/stop-policy.schema.json'), 'utf8');
const schema = JSON.parse(shipped) as object;
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
const one = (when: unknown, then: unknown = stop) => ({ version: 2, rules: [{ id: 'r', when, then }] });

describe('the policy document format', () => {
  it('is version 2, with the decision model, the provider and the limits named as the engine reads them', () => {
    expect(STOP_POLICY_VERSION).toBe(2);
    expect(CONDITION_KINDS).toEqual(['all', 'any', 'not', 'atLeast', 'always', 'limit', 'tests', 'check', 'criteria', 'signal', 'provider', 'verification', 'human', 'stall', 'retries', 'decisionModel', 'reentered', 'taskType']);
    expect(LIMIT_NAMES).toContain('decisionModelCalls');
    expect(LIMIT_NAMES).toContain('decisionModelCost');
    expect(PROVIDER_STATES).toEqual(['token_limit', 'step_limit', 'failed']);
  });
});

describe('the shipped JSON Schema of a stop policy', { timeout: 120_000 }, () => {
  it('is the one the schema definition generates', () => {
    const file = schemaFiles().find((entry) => entry.file === 'stop-policy.schema.json');
    expect(file?.text).toBe(shipped);
  });

  it('accepts the presets and every policy parseStopPolicy accepts', () => {
    for (const preset of [SEED_STOP_POLICY, HOOK_STOP_POLICY, agentLoopPolicy({ maxSteps: 0, maxCost: 2 })]) expect(validate(preset), JSON.stringify(validate.errors)).toBe(true);
    fc.assert(
      fc.property(fc.array(condition, { minLength: 1, maxLength: 4 }), (conditions) => {
        const value = { version: 2, name: 'random', rules: conditions.map((when, i) => ({ id: `r${i}`, when, then: i % 2 === 0 ? stop : { kind: 'retry', reason: 'again' } })) };
        expect(parses(value)).toBe(true);
        expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses what parseStopPolicy refuses, but for the checks across fields it leaves to the parser', () => {
    const refused = [
      { version: 2, rules: [] },
      { version: 1, rules: [] },
      { version: 3, rules: [{ id: 'r', when: { always: true }, then: stop }] },
      { ...one({ always: true }), extra: 1 },
      one({ testz: 'failed' }),
      one({ tests: 'failed', signal: 'done' }),
      one({}),
      one({ tests: 'broken' }),
      one({ criteria: { gte: 1.5 } }),
      one({ criteria: { gte: 0.5, lt: 0.7 } }),
      one({ criteria: { criterion: 'a' } }),
      one({ limit: { of: 'steps', max: -1 } }),
      one({ judge: 'none' }),
      one({ provider: 'timeout' }),
      one({ limit: { of: 'dollars', max: 2 } }),
      one({ stall: { detector: 'identical_fingerprints', rounds: 0 } }),
      one({ always: false }),
      one({ atLeast: { count: 0, of: [{ always: true }] } }),
      one({ always: true }, { kind: 'halt' }),
      one({ always: true }, { kind: 'retry' }),
      one({ always: true }, { kind: 'stop', exit: 'done', reason: 'x' }),
      { version: 2, rules: [{ id: '', when: { always: true }, then: stop }] },
    ];
    for (const value of refused) {
      expect(parses(value), JSON.stringify(value)).toBe(false);
      expect(validate(value), JSON.stringify(value)).toBe(false);
    }
    const parserOnly = [
      { version: 2, rules: [{ id: 'x', when: { always: true }, then: stop }, { id: 'x', when: { always: true }, then: stop }] },
      one({ atLeast: { count: 3, of: [{ always: true }] } }),
      one({ criteria: { within: [0.7, 0.4] } }),
      one({ limit: { of: 'steps', max: 2.5 } }),
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
      { numRuns: 1000 },
    );
  });
});

describe('the options of a step_history condition', () => {
  const mk = (options: unknown) => ({ version: 2, rules: [{ id: 'r', when: { stall: { detector: 'step_history', options } }, then: { kind: 'stop', exit: 'need_help', reason: 'x' } }] });

  it('refuses an unknown field inside a pattern or a tool identity, naming its path and the nearest name', () => {
    expect(() => parseStopPolicy(mk({ repeatedResult: { repaets: 2 } }))).toThrow('rules[0].when.stall.options.repeatedResult.repaets: unknown field (did you mean "repeats"?)');
    expect(() => parseStopPolicy(mk({ tools: { bash: { argumentz: ['a'] } } }))).toThrow('rules[0].when.stall.options.tools.bash.argumentz: unknown field (did you mean "arguments"?)');
  });

  it('keeps a copy: the caller object is not frozen', () => {
    const options = { repeatedResult: { repeats: 2 } };
    const policy = parseStopPolicy(mk(options));
    expect(Object.isFrozen(options)).toBe(false);
    expect(Object.isFrozen(options.repeatedResult)).toBe(false);
    options.repeatedResult.repeats = 9;
    expect(policy.rules[0]?.when).toEqual({ stall: { detector: 'step_history', options: { repeatedResult: { repeats: 2 } } } });
  });
});
