import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOOK_STOP_POLICY } from '../../src/core/policy/hook-stop-policy.js';
import { SEED_STOP_POLICY } from '../../src/core/policy/seed-stop-policy.js';
import { parseStopwiseConfig } from '../../src/hosts/stopwise-config.js';

const read = (name: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../../schemas', name), 'utf8')) as object;
const ajv = new Ajv2020({ allErrors: true, strict: true });
ajv.addSchema(read('stop-policy.schema.json'));
const validate = ajv.compile(read('stopwise-config.schema.json'));

const parses = (value: unknown): boolean => parseStopwiseConfig(value).ok;

const tests = fc.record(
  {
    command: fc.constantFrom('npm test', 'npx vitest run', 'pytest -q'),
    args: fc.array(fc.constantFrom('--run', '-x', 'test/'), { maxLength: 2 }),
    report: fc.oneof(
      fc.record({ format: fc.constantFrom('junit', 'tap', 'vitest-json', 'jest-json'), path: fc.constantFrom('report.xml', 'out/report.json') }, { requiredKeys: ['format'] }),
      fc.constant({ format: 'exit-code' }),
    ),
    timeoutMs: fc.integer({ min: 1, max: 600_000 }),
  },
  { requiredKeys: ['command'] },
);
const judge = fc.oneof(
  fc.constant({ client: 'none' }),
  fc.record({ client: fc.constant('system-one'), apiKeyEnv: fc.constantFrom('SYSTEM_ONE_API_KEY', 'MY_KEY'), timeoutMs: fc.integer({ min: 1, max: 60_000 }) }, { requiredKeys: ['client'] }),
  fc.record({ client: fc.constant('openai-compatible'), baseURL: fc.constantFrom('http://127.0.0.1:8000/v1', 'https://api.example.com/v1'), model: fc.constant('judge-7b') }),
);
const policy = fc.oneof(
  fc.record({ doneThreshold: fc.constantFrom(0.7, 0.8, 0.9), midBandLow: fc.constantFrom(0.3, 0.5), maxSteps: fc.integer({ min: 1, max: 50 }), stallRounds: fc.integer({ min: 2, max: 6 }) }, { requiredKeys: [] }),
  fc.constantFrom(SEED_STOP_POLICY, HOOK_STOP_POLICY),
  fc.constant('stop-policy.json'),
);
const toolGuard = fc.record(
  {
    enabled: fc.boolean(),
    ladder: fc.record({ nudges: fc.integer({ min: 0, max: 5 }), refusals: fc.integer({ min: 0, max: 5 }), handOff: fc.boolean() }, { requiredKeys: [] }),
    stall: fc.record(
      {
        repeatedFailingCall: fc.oneof(fc.constant(false as const), fc.record({ repeats: fc.integer({ min: 2, max: 9 }) })),
        inferErrors: fc.boolean(),
        tools: fc.constant({ Poll: { polling: true }, Bash: { arguments: ['command'] } }),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);
const config = fc
  .record(
    {
      task: fc.constantFrom('Fix the token check', 'Add pagination'),
      acceptance: fc.array(fc.constantFrom('expired tokens get a 401', 'the last page is returned'), { maxLength: 2 }),
      tests,
      judge,
      policy,
      maxConsecutiveBlocks: fc.integer({ min: 1, max: 10 }),
      stateDir: fc.constant('.stopwise/state'),
      outcomesFile: fc.constant('.stopwise/outcomes.jsonl'),
      toolGuard,
    },
    { requiredKeys: ['tests', 'task'] },
  )
  .map((value) => ({ $schema: 'https://unpkg.com/stopwise/schemas/stopwise-config.schema.json', ...value }));

describe('the shipped JSON Schema of stopwise.config.json', () => {
  it('accepts every configuration the hook accepts', () => {
    fc.assert(
      fc.property(config, (value) => {
        expect(parses(value), parseStopwiseConfig(value).ok ? '' : (parseStopwiseConfig(value) as { message: string }).message).toBe(true);
        expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses what the hook refuses, but for the checks across fields it leaves to the hook', () => {
    const base = { tests: { command: 'npm test' } };
    const refused: unknown[] = [
      {},
      { tests: {} },
      { tests: { command: '' } },
      { ...base, unknown: 1 },
      { tests: { command: 'npm test', shell: true } },
      { tests: { command: 'npm test', report: { format: 'xunit' } } },
      { tests: { command: 'npm test', timeoutMs: 0 } },
      { tests: { command: 'npm test', timeoutMs: 2 ** 31 } },
      { ...base, judge: { client: 'gpt' } },
      { ...base, judge: { client: 'system-one', apiKeyEnv: 'not a name' } },
      { ...base, judge: { client: 'openai-compatible', baseURL: 'ftp://x', model: 'm' } },
      { ...base, policy: 42 },
      { ...base, policy: '' },
      { ...base, policy: { doneThreshold: 'high' } },
      { ...base, policy: { version: 1, rules: [{ id: 'r', when: { tests: 'green' }, then: { kind: 'stop', exit: 'success', reason: 'ok' } }] } },
      { ...base, maxConsecutiveBlocks: 0 },
      { ...base, toolGuard: { enabled: 'yes' } },
      { ...base, toolGuard: { ladder: { nudges: -1 } } },
      { ...base, toolGuard: { stall: { sameCall: { repeats: 3 } } } },
      { ...base, toolGuard: { stall: { tools: { Poll: { polling: 'yes' } } } } },
    ];
    for (const value of refused) {
      expect(parses(value), JSON.stringify(value)).toBe(false);
      expect(validate(value), JSON.stringify(value)).toBe(false);
    }
    // Across fields, the hook's own checks: the schema allows these, the hook refuses them with a message.
    for (const value of [
      { ...base, judge: { client: 'system-one' } },
      { ...base, task: 't', judge: { client: 'openai-compatible' } },
      { ...base, apiKey: 'sk-123' },
      { ...base, taskType: 'bugfix' },
    ]) {
      expect(parses(value), JSON.stringify(value)).toBe(false);
    }
  });
});
