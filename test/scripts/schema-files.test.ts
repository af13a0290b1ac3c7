import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it } from 'vitest';
import { schemaFiles } from '../../scripts/schema-files.js';
import { HOOK_STOP_POLICY } from '../../src/core/policy/hook-stop-policy.js';
import { parseStopPolicy } from '../../src/core/policy/parse-stop-policy.js';
import { SEED_STOP_POLICY } from '../../src/core/policy/seed-stop-policy.js';
import { parseStopwiseConfig } from '../../src/hosts/stopwise-config.js';

const root = join(import.meta.dirname, '..', '..');
const generated = Object.fromEntries(schemaFiles().map(({ file, text }) => [file, text]));

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('the shipped JSON Schemas', () => {
  it('are what scripts/generate-schemas.ts generates from the definitions now', () => {
    expect(Object.keys(generated).sort()).toEqual(['stop-policy.schema.json', 'stopwise-config.schema.json']);
    for (const [file, text] of Object.entries(generated)) {
      expect(readFileSync(join(root, 'schemas', file), 'utf8'), `schemas/${file} is stale: run tsx scripts/generate-schemas.ts`).toBe(text);
    }
  });

  it('generate-schemas --check passes on this checkout and fails on a stale file, naming it', () => {
    const tsx = join(root, 'node_modules', '.bin', 'tsx');
    const fresh = spawnSync(tsx, ['scripts/generate-schemas.ts', '--check'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    expect(fresh.stderr).toBe('');
    expect(fresh.status).toBe(0);
    // A copy of the project whose shipped policy schema lags its definition.
    const copy = mkdtempSync(join(tmpdir(), 'stopwise-schemas-'));
    folders.push(copy);
    cpSync(join(root, 'scripts'), join(copy, 'scripts'), { recursive: true });
    symlinkSync(join(root, 'src'), join(copy, 'src'));
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
    cpSync(join(root, 'package.json'), join(copy, 'package.json'));
    cpSync(join(root, 'tsconfig.json'), join(copy, 'tsconfig.json'));
    mkdirSync(join(copy, 'schemas'));
    writeFileSync(join(copy, 'schemas', 'stop-policy.schema.json'), (generated['stop-policy.schema.json'] as string).replace('"const": 2', '"const": 1'));
    writeFileSync(join(copy, 'schemas', 'stopwise-config.schema.json'), generated['stopwise-config.schema.json'] as string);
    const stale = spawnSync(tsx, ['scripts/generate-schemas.ts', '--check'], { cwd: copy, encoding: 'utf8', timeout: 120_000 });
    expect(stale.status).toBe(1);
    expect(stale.stderr).toBe('schemas/stop-policy.schema.json differs from what its definition generates: run tsx scripts/generate-schemas.ts and commit the file\n');
    // Without --check it writes the file the definition generates.
    const written = spawnSync(tsx, ['scripts/generate-schemas.ts'], { cwd: copy, encoding: 'utf8', timeout: 120_000 });
    expect(written.status).toBe(0);
    expect(readFileSync(join(copy, 'schemas', 'stop-policy.schema.json'), 'utf8')).toBe(generated['stop-policy.schema.json']);
  }, 120_000);
});

const ajv = new Ajv2020({ allErrors: true, strict: true, validateFormats: false });
const validatePolicy = ajv.compile(JSON.parse(generated['stop-policy.schema.json'] as string) as object);
const validateConfig = ajv.compile(JSON.parse(generated['stopwise-config.schema.json'] as string) as object);

const parsesPolicy = (value: unknown): boolean => {
  try {
    parseStopPolicy(value);
    return true;
  } catch {
    return false;
  }
};
const parsesConfig = (value: unknown): boolean => parseStopwiseConfig(value).ok;

const success = { kind: 'stop', exit: 'success', reason: 'ok' };
const policy = (...rules: unknown[]) => ({ version: 2, rules: rules.map((rule, index) => ({ id: `r${index}`, then: success, ...(rule as object) })) });
const when = (condition: unknown) => policy({ when: condition });

/** Documents both the parser and the schema accept. */
const validPolicies: Record<string, unknown> = {
  seed: SEED_STOP_POLICY,
  hook: HOOK_STOP_POLICY,
  'named, with $schema and descriptions': { $schema: './node_modules/stopwise/schemas/stop-policy.schema.json', version: 2, name: 'team', rules: [{ id: 'a', description: 'always', when: { always: true }, then: { kind: 'continue' } }] },
  'nested all, any, not and atLeast': when({
    all: [
      { any: [{ tests: 'passed' }, { not: { signal: 'none' } }, { check: { name: 'lint', is: 'passed' } }] },
      { not: { all: [{ tests: 'failed' }, { criteria: { criterion: 'acceptanceCovered', lt: 0.5 } }] } },
      { atLeast: { count: 2, of: [{ criteria: { gte: 0.7 } }, { verification: 'passed' }, { human: 'answered' }] } },
    ],
  }),
  'empty all and any': when({ any: [{ all: [] }, { any: [] }] }),
  'every leaf kind': policy(
    { when: { limit: { of: 'decisionModelCost', max: 0.5 } } },
    { when: { limit: { of: 'steps', max: 0 } } },
    { when: { tests: 'stale' } },
    { when: { criteria: { within: [0.4, 0.7] } } },
    { when: { provider: 'token_limit' } },
    { when: { stall: { detector: 'identical_fingerprints', rounds: 3 } } },
    { when: { stall: { detector: 'step_history', patterns: ['repeated-call'], options: { repeatedCall: { repeats: 3 } } } } },
    { when: { retries: { atLeast: 2 } } },
    { when: { decisionModel: 'unavailable' } },
    { when: { reentered: true } },
    { when: { taskType: 'bugfix' } },
  ),
  'every outcome': policy({ when: { always: true }, then: { kind: 'retry', reason: 'again' } }, { when: { always: true }, then: { kind: 'continue', reason: 'wait' } }, { when: { always: true }, then: { kind: 'stop', exit: 'failed', reason: 'broken' } }),
};

/** Documents both refuse. */
const invalidPolicies: Record<string, unknown> = {
  'not an object': [SEED_STOP_POLICY],
  'a version 1 document': { ...SEED_STOP_POLICY, version: 1 },
  'a version 1 document with judge conditions': { version: 1, rules: [{ id: 'j', when: { judge: 'answered' }, then: success }] },
  'version 3': { ...SEED_STOP_POLICY, version: 3 },
  'no version': { rules: SEED_STOP_POLICY.rules },
  'no rules': { version: 2, rules: [] },
  'an unknown key at the top': { ...SEED_STOP_POLICY, byTaskType: {} },
  'an unknown key in a rule': policy({ when: { always: true }, thn: success }),
  'an unknown condition': when({ testz: 'failed' }),
  'the renamed judge condition': when({ judge: 'answered' }),
  'the renamed judgeCalls limit': when({ limit: { of: 'judgeCalls', max: 3 } }),
  'two kinds in one condition': when({ tests: 'failed', signal: 'done' }),
  'an empty condition': when({}),
  'an unknown key deep in all/any/not': when({ all: [{ any: [{ not: { tests: 'passed', extra: 1 } }] }] }),
  'a bad value deep in atLeast': when({ atLeast: { count: 1, of: [{ any: [{ criteria: { gte: 1.5 } }] }] } }),
  'a criteria comparison with two bounds': when({ criteria: { gte: 0.5, lt: 0.7 } }),
  'a criteria comparison with none': when({ criteria: { criterion: 'a' } }),
  'atLeast 0': when({ atLeast: { count: 0, of: [{ always: true }] } }),
  'atLeast of nothing': when({ atLeast: { count: 1, of: [] } }),
  'a negative limit': when({ limit: { of: 'cost', max: -1 } }),
  'always false': when({ always: false }),
  'an unknown exit': policy({ when: { always: true }, then: { kind: 'stop', exit: 'done', reason: 'x' } }),
  'a retry without a reason': policy({ when: { always: true }, then: { kind: 'retry' } }),
  'a blank rule id': { version: 2, rules: [{ id: '  ', when: { always: true }, then: success }] },
  'an unknown stall pattern': when({ stall: { detector: 'step_history', patterns: ['loops'] } }),
};

/** What the parser refuses and a JSON Schema cannot express: checks across fields. */
const parserOnlyPolicies: Record<string, unknown> = {
  'duplicate rule ids': { version: 2, rules: [{ id: 'x', when: { always: true }, then: success }, { id: 'x', when: { always: true }, then: success }] },
  'atLeast above its conditions': when({ atLeast: { count: 3, of: [{ always: true }] } }),
  'a band upside down': when({ criteria: { within: [0.7, 0.4] } }),
  'a step cap that is not a whole number': when({ limit: { of: 'steps', max: 2.5 } }),
};

const tests = { command: 'npm', args: ['test'] };

/** Configurations both accept. */
const validConfigs: Record<string, unknown> = {
  'tests alone': { tests },
  'everything, the policy as numbers': {
    $schema: 'https://unpkg.com/stopwise/schemas/stopwise-config.schema.json',
    task: 'Fix the token check',
    acceptance: ['expired tokens get a 401'],
    tests: { command: 'npx vitest run', report: { format: 'junit', path: 'report.xml' }, timeoutMs: 60_000 },
    decisionModel: { client: 'openai-compatible', baseURL: 'http://127.0.0.1:8000/v1', model: 'judge-7b', apiKeyEnv: 'MY_KEY', timeoutMs: 10_000 },
    policy: { doneThreshold: 0.8, midBandLow: 0.5, maxSteps: 12, stallRounds: 4 },
    maxConsecutiveBlocks: 2,
    stateDir: '.stopwise/state',
    outcomesFile: '.stopwise/outcomes.jsonl',
    toolGuard: { enabled: true, ladder: { nudges: 1, refusals: 2, handOff: false }, stall: { repeatedFailingCall: { repeats: 3 }, tools: { Poll: { polling: true } } } },
  },
  'a policy file': { tests, policy: 'stop-policy.json' },
  'an inline policy document with nested conditions and a task type it reads': {
    tests,
    taskType: 'bugfix',
    policy: when({ all: [{ taskType: 'bugfix' }, { not: { any: [{ tests: 'failed' }, { tests: 'no_tests_ran' }] } }] }),
  },
  'the hook preset inline': { tests, policy: HOOK_STOP_POLICY },
  'no decision model': { tests, decisionModel: { client: 'none' } },
};

/** Configurations both refuse. */
const invalidConfigs: Record<string, unknown> = {
  'no tests': { task: 't' },
  'an empty test command': { tests: { command: '' } },
  'an unknown key': { tests, judge: { client: 'none' } },
  'a misspelt key': { tests, stateDirectory: '.stopwise' },
  'an API key in the file': { tests, apiKey: 'sk-123' },
  'an API key beside the decision model': { tests, decisionModel: { client: 'system-one', apiKey: 'sk-123' } },
  'an unknown client': { tests, decisionModel: { client: 'gpt' } },
  'an unknown report format': { tests: { ...tests, report: { format: 'xml' } } },
  'a timeout of 0': { tests: { ...tests, timeoutMs: 0 } },
  'a key, not a variable name, in apiKeyEnv': { tests, task: 't', decisionModel: { client: 'system-one', apiKeyEnv: 'sk-live-123' } },
  'a version 1 policy inline': { tests, policy: { ...SEED_STOP_POLICY, version: 1 } },
  'a policy document with an unknown condition deep down': { tests, policy: when({ any: [{ not: { judge: 'answered' } }] }) },
  'an unknown policy number': { tests, policy: { doneTreshold: 0.8 } },
  'an empty policy path': { tests, policy: '' },
  'an unknown tool guard key': { tests, toolGuard: { ladder: { nudge: 1 } } },
};

/** What the hook refuses and a JSON Schema cannot express: checks across fields. */
const parserOnlyConfigs: Record<string, unknown> = {
  'a decision model without a task': { tests, decisionModel: { client: 'system-one' } },
  'an OpenAI-compatible model without its address and model': { tests, task: 't', decisionModel: { client: 'openai-compatible' } },
  'a report path with the exit code': { tests: { ...tests, report: { format: 'exit-code', path: 'r.xml' } } },
  'a task type no rule of the inline policy reads': { tests, taskType: 'docs', policy: SEED_STOP_POLICY },
  'a band upside down in the numbers': { tests, policy: { doneThreshold: 0.5, midBandLow: 0.6 } },
  'duplicate rule ids in the inline policy': { tests, policy: parserOnlyPolicies['duplicate rule ids'] },
};

describe('the parser and the generated JSON Schema agree', () => {
  it.each(Object.entries(validPolicies))('both accept the policy: %s', (_name, value) => {
    expect(parsesPolicy(value)).toBe(true);
    expect(validatePolicy(value), JSON.stringify(validatePolicy.errors)).toBe(true);
  });

  it.each(Object.entries(invalidPolicies))('both refuse the policy: %s', (_name, value) => {
    expect(parsesPolicy(value)).toBe(false);
    expect(validatePolicy(value)).toBe(false);
  });

  it.each(Object.entries(parserOnlyPolicies))('only the parser refuses the policy (a check across fields): %s', (_name, value) => {
    expect(parsesPolicy(value)).toBe(false);
    expect(validatePolicy(value), JSON.stringify(validatePolicy.errors)).toBe(true);
  });

  it.each(Object.entries(validConfigs))('both accept the configuration: %s', (_name, value) => {
    const parsed = parseStopwiseConfig(value);
    expect(parsed.ok, parsed.ok ? '' : parsed.message).toBe(true);
    expect(validateConfig(value), JSON.stringify(validateConfig.errors)).toBe(true);
  });

  it.each(Object.entries(invalidConfigs))('both refuse the configuration: %s', (_name, value) => {
    expect(parsesConfig(value)).toBe(false);
    expect(validateConfig(value)).toBe(false);
  });

  it.each(Object.entries(parserOnlyConfigs))('only the hook refuses the configuration (a check across fields): %s', (_name, value) => {
    expect(parsesConfig(value)).toBe(false);
    expect(validateConfig(value), JSON.stringify(validateConfig.errors)).toBe(true);
  });

  it('says in the schemas which checks are the parser\'s alone', () => {
    const described = (file: string) => (JSON.parse(generated[file] as string) as { description: string }).description;
    expect(described('stop-policy.schema.json')).toMatch(/unique rule ids, atLeast counts within the number of conditions, bands in order/);
    expect(described('stopwise-config.schema.json')).toMatch(/a task with a decision model, the address and model of an OpenAI-compatible one, no API key in the file/);
  });
});
