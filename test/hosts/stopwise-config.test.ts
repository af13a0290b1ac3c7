import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempFolders } from '../support/temp-folders.js';
import { HOOK_STOP_POLICY } from '../../src/core/policy/hook-stop-policy.js';
import { SEED_STOP_POLICY } from '../../src/core/policy/seed-stop-policy.js';
import { DEFAULT_POLICY } from '../../src/core/stop-policy.js';
import { findConfigFile, missingConfigMessage } from '../../src/hosts/config-file.js';
import { loadStopwiseConfig, parseStopwiseConfig, type StopwiseConfig } from '../../src/hosts/stopwise-config.js';
import { DEFAULT_TOOL_GUARD_OPTIONS } from '../../src/hosts/tool-guard.js';

const tempFolder = tempFolders();
const folder = (): string => tempFolder('stopwise-config-');

function parsed(value: unknown): StopwiseConfig {
  const result = parseStopwiseConfig(value);
  if (!result.ok) throw new Error(result.message);
  return result.config;
}

/** The problems of a refused configuration, one a line. */
function problems(value: unknown): string[] {
  const result = parseStopwiseConfig(value);
  if (result.ok) throw new Error('expected the configuration to be refused');
  return result.message.split('\n');
}

const tests = { command: 'npm', args: ['test'] };

describe('parseStopwiseConfig', () => {
  it('fills in every default around the test command', () => {
    expect(parseStopwiseConfig({ tests })).toEqual({
      ok: true,
      config: {
        task: '',
        acceptance: [],
        tests: { command: 'npm', args: ['test'], timeoutMs: 240_000 },
        decisionModel: { client: 'none', timeoutMs: 30_000 },
        policy: DEFAULT_POLICY,
        maxConsecutiveBlocks: 1,
        stateDir: '.stopwise/state',
        toolGuard: DEFAULT_TOOL_GUARD_OPTIONS,
      },
    });
  });

  it('reads a full configuration', () => {
    const config = parsed({
      $schema: './node_modules/stopwise/schemas/stopwise-config.schema.json',
      task: ' Add rate limiting to the login endpoint ',
      acceptance: ['five failed logins lock the account for 15 minutes'],
      tests: { command: 'npx', args: ['vitest', 'run'], report: { format: 'vitest-json', path: 'r.json' }, timeoutMs: 60_000 },
      decisionModel: { client: 'system-one', baseURL: 'https://api.example.invalid/v1', model: 'so-1', apiKeyEnv: 'MY_KEY', timeoutMs: 5_000 },
      policy: { doneThreshold: 0.8, maxSteps: 6 },
      taskType: 'bugfix',
      maxConsecutiveBlocks: 3,
      stateDir: 'tmp/state',
      outcomesFile: '.stopwise/outcomes.jsonl',
      toolGuard: { ladder: { nudges: 2 }, stall: { tools: { poll_status: { polling: true } } } },
    });
    expect(config).toMatchObject({
      task: 'Add rate limiting to the login endpoint',
      tests: { report: { format: 'vitest-json', path: 'r.json' }, timeoutMs: 60_000 },
      decisionModel: { client: 'system-one', apiKeyEnv: 'MY_KEY', timeoutMs: 5_000 },
      policy: { doneThreshold: 0.8, maxSteps: 6, midBandLow: 0.4, stallRounds: 3 },
      taskType: 'bugfix',
      maxConsecutiveBlocks: 3,
      stateDir: 'tmp/state',
      outcomesFile: '.stopwise/outcomes.jsonl',
      toolGuard: { enabled: true, ladder: { nudges: 2, refusals: 1, handOff: true }, stall: { tools: { Bash: { arguments: ['command'] }, poll_status: { polling: true } } } },
    });
    expect(config).not.toHaveProperty('stopPolicy');
    expect(config).not.toHaveProperty('policyFile');
  });

  it('names the key and the problem of each mistake', () => {
    expect(problems({})).toEqual(['tests: required (an object)']);
    expect(problems({ tests: { command: 42 } })).toEqual(['tests.command: expected a string, got 42']);
    expect(problems({ tests: { command: '' } })).toEqual(['tests.command: must not be empty, got ""']);
    expect(problems({ tests: { command: 'x', timeoutMs: 0 } })).toEqual(['tests.timeoutMs: must be above 0, got 0']);
    expect(problems({ tests: { command: 'x', timeoutMs: 3_000_000_000 } })).toEqual(['tests.timeoutMs: must be at most 2147483647, got 3000000000']);
    expect(problems({ tests: { command: 'x', report: { format: 'xml' } } })).toEqual(['tests.report.format: must be one of "junit", "tap", "vitest-json", "jest-json", "exit-code", got "xml"']);
    expect(problems({ tests, maxConsecutiveBlocks: 1.5 })).toEqual(['maxConsecutiveBlocks: expected an integer, got 1.5']);
    expect(problems({ tests, decisionModel: { client: 'gpt' } })).toEqual(['decisionModel.client: must be one of "none", "system-one", "openai-compatible", "ai-sdk", got "gpt"']);
    expect(problems({ tests, task: 't', decisionModel: { client: 'system-one', baseURL: 'not a url' } })).toEqual(['decisionModel.baseURL: must be an http(s) URL, got "not a url"']);
    expect(problems({ tests, outcomesFile: '' })).toEqual(['outcomesFile: must not be empty, got ""']);
    expect(problems([])).toEqual(['the configuration must be a JSON object, got an array']);
    expect(problems(null)).toEqual(['the configuration must be a JSON object, got null']);
  });

  it('reports every problem at once, one a line', () => {
    expect(problems({ tests: { command: 1, args: 'x' }, acceptance: [''], stateDir: '' })).toEqual([
      'acceptance[0]: must not be empty, got ""',
      'tests.command: expected a string, got 1',
      'tests.args: expected an array, got "x"',
      'stateDir: must not be empty, got ""',
    ]);
  });

  it('names the nearest known key of a misspelt one, at every level, and lists the known ones otherwise', () => {
    expect(problems({ tests, maxConsecutiveBlock: 2 })).toEqual(['maxConsecutiveBlock: unknown field (did you mean "maxConsecutiveBlocks"?)']);
    expect(problems({ tests: { comand: 'x' } })).toEqual(['tests.command: required (a string)', 'tests.comand: unknown field (did you mean "command"?)']);
    expect(problems({ tests, decisionModel: { client: 'none', baseUrl: 'http://x', timeout: 5 } })).toEqual([
      'decisionModel.baseUrl: unknown field (did you mean "baseURL"?)',
      'decisionModel.timeout: unknown field (did you mean "timeoutMs"?)',
    ]);
    expect(problems({ tests, colour: 2 })).toEqual([
      'colour: unknown field; expected one of task, acceptance, tests, decisionModel, policy, taskType, maxConsecutiveBlocks, stateDir, outcomesFile, toolGuard',
    ]);
    // The key of the earlier release is a mistake like any other.
    expect(problems({ tests, judge: { client: 'none' } })).toEqual([expect.stringMatching(/^judge: unknown field/)]);
    expect(problems({ tests, toolGuard: { ladder: { nudges: -1, refusal: 2 }, stall: { tools: { x: { polling: 'yes' } } }, colour: 1 } })).toEqual([
      'toolGuard.ladder.nudges: must be at least 0, got -1',
      'toolGuard.ladder.refusal: unknown field (did you mean "refusals"?)',
      'toolGuard.stall.tools.x.polling: expected a boolean, got "yes"',
      'toolGuard.colour: unknown field; expected one of enabled, ladder, stall',
    ]);
  });

  it('refuses an API key in the file and says where it belongs', () => {
    expect(problems({ tests, decisionModel: { client: 'system-one', apiKey: 'sk-123' } })).toEqual([
      "decisionModel.apiKey: an API key is never written in stopwise.config.json; keep it in an environment variable and put that variable's name in decisionModel.apiKeyEnv",
    ]);
    expect(problems({ tests, token: 'abc' })[0]).toMatch(/^token: an API key is never written in stopwise\.config\.json/);
    expect(problems({ tests, task: 't', decisionModel: { client: 'system-one', apiKeyEnv: 'sk-live-123' } })[0]).toMatch(/^decisionModel\.apiKeyEnv: /);
  });

  it('asks for the task when a decision model judges, the address and model of an OpenAI-compatible one, and no report path with the exit code', () => {
    expect(problems({ tests, decisionModel: { client: 'system-one' } })).toEqual(['task: required when decisionModel.client is "system-one" (the decision model judges the output against it)']);
    expect(problems({ tests, task: ' ', decisionModel: { client: 'system-one' } })[0]).toMatch(/^task: required/);
    expect(problems({ tests, task: 't', decisionModel: { client: 'openai-compatible' } })).toEqual([
      'decisionModel.baseURL: required when decisionModel.client is "openai-compatible"',
      'decisionModel.model: required when decisionModel.client is "openai-compatible"',
    ]);
    expect(problems({ tests: { command: 'make test', report: { format: 'exit-code', path: 'r.xml' } } })).toEqual([
      'tests.report.path: not used with format "exit-code" (no report is read: the exit code alone decides)',
    ]);
    expect(parsed({ tests: { command: 'make test', report: { format: 'exit-code' } } }).tests).toEqual({ command: 'make test', report: { format: 'exit-code' }, timeoutMs: 240_000 });
  });

  it('reads the numbers of the hook preset, a stop policy document, or the path of a policy file', () => {
    expect(parsed({ tests, policy: { maxSteps: 5 } }).policy).toEqual({ ...DEFAULT_POLICY, maxSteps: 5 });
    expect(problems({ tests, policy: { midBandLow: 0.9 } })).toEqual([expect.stringMatching(/^policy\.midBandLow: must not be above doneThreshold/)]);
    const document = parsed({ tests, policy: JSON.parse(JSON.stringify(HOOK_STOP_POLICY)) });
    expect(document).toMatchObject({ policy: DEFAULT_POLICY, stopPolicy: HOOK_STOP_POLICY });
    expect(parsed({ tests, policy: '.stopwise/policy.json' })).toMatchObject({ policy: DEFAULT_POLICY, policyFile: '.stopwise/policy.json' });
    expect(problems({ tests, policy: '' })).toEqual(['policy: must not be empty, got ""']);
    expect(problems({ tests, policy: 42 })[0]).toMatch(/^policy: .*42/);
  });

  it('refuses a policy document with the JSON path of each problem, and a task type no rule of it reads', () => {
    const bad = { version: 2, rules: [{ id: 'r', when: { criteria: { gte: 1.5 } }, then: { kind: 'stop', exit: 'success', reason: 'ok' } }] };
    expect(problems({ tests, policy: bad })).toEqual(['policy.rules[0].when.criteria.gte: must be at most 1, got 1.5']);
    const typed = { version: 2, rules: [{ id: 'r', when: { taskType: 'bugfix' }, then: { kind: 'stop', exit: 'success', reason: 'ok' } }] };
    expect(parsed({ tests, policy: typed, taskType: 'bugfix' }).taskType).toBe('bugfix');
    expect(problems({ tests, policy: typed, taskType: 'docs' })).toEqual(['taskType: no rule of the policy reads task type "docs" (a { "taskType": ... } condition); it has bugfix']);
  });

  it('refuses a policy that compares criteria and says nothing for a stop without a decision model, when none is configured', () => {
    const seed = JSON.parse(JSON.stringify(SEED_STOP_POLICY));
    expect(problems({ tests, policy: seed })).toEqual([expect.stringMatching(/^policy: rules evidence_contradicts_model, tests_failed, .* compare criterion probabilities and no rule says what to do without a decision model/)]);
    // With a decision model it is the policy's to decide; the hook preset has rules for a stop without one.
    expect(parsed({ tests, task: 'T', decisionModel: { client: 'system-one' }, policy: seed }).stopPolicy).toEqual(SEED_STOP_POLICY);
    expect(parsed({ tests, policy: JSON.parse(JSON.stringify(HOOK_STOP_POLICY)) }).stopPolicy).toEqual(HOOK_STOP_POLICY);
  });
});

describe('the shipped JSON Schema of stopwise.config.json', () => {
  const read = (name: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../../schemas', name), 'utf8')) as object;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const validate = ajv.compile(read('stopwise-config.schema.json'));

  it('accepts every configuration the hook accepts', () => {
    const arbitraryConfig = fc.record(
      {
        task: fc.constantFrom('Fix the token check', 'Add pagination'),
        acceptance: fc.array(fc.constantFrom('expired tokens get a 401', 'the last page is returned'), { maxLength: 2 }),
        tests: fc.record(
          {
            command: fc.constantFrom('npm test', 'npx vitest run', 'pytest -q'),
            args: fc.array(fc.constantFrom('--run', '-x', 'test/'), { maxLength: 2 }),
            report: fc.oneof(fc.record({ format: fc.constantFrom('junit', 'tap', 'vitest-json', 'jest-json'), path: fc.constantFrom('report.xml', 'out/report.json') }, { requiredKeys: ['format'] }), fc.constant({ format: 'exit-code' })),
            timeoutMs: fc.integer({ min: 1, max: 600_000 }),
          },
          { requiredKeys: ['command'] },
        ),
        decisionModel: fc.oneof(
          fc.constant({ client: 'none' }),
          fc.record({ client: fc.constant('system-one'), apiKeyEnv: fc.constantFrom('SYSTEM_ONE_API_KEY', 'MY_KEY'), timeoutMs: fc.integer({ min: 1, max: 60_000 }) }, { requiredKeys: ['client'] }),
          fc.record({ client: fc.constant('openai-compatible'), baseURL: fc.constantFrom('http://127.0.0.1:8000/v1', 'https://api.example.com/v1'), model: fc.constant('judge-7b') }),
        ),
        policy: fc.oneof(
          fc.record({ doneThreshold: fc.constantFrom(0.7, 0.8, 0.9), midBandLow: fc.constantFrom(0.3, 0.5), maxSteps: fc.integer({ min: 1, max: 50 }), stallRounds: fc.integer({ min: 2, max: 6 }) }, { requiredKeys: [] }),
          fc.constant(HOOK_STOP_POLICY),
          fc.constant('stop-policy.json'),
        ),
        maxConsecutiveBlocks: fc.integer({ min: 1, max: 10 }),
        stateDir: fc.constant('.stopwise/state'),
        outcomesFile: fc.constant('.stopwise/outcomes.jsonl'),
        toolGuard: fc.record(
          {
            enabled: fc.boolean(),
            ladder: fc.record({ nudges: fc.integer({ min: 0, max: 5 }), refusals: fc.integer({ min: 0, max: 5 }), handOff: fc.boolean() }, { requiredKeys: [] }),
            stall: fc.record(
              { repeatedFailingCall: fc.oneof(fc.constant(false as const), fc.record({ repeats: fc.integer({ min: 2, max: 9 }) })), inferErrors: fc.boolean(), tools: fc.constant({ Poll: { polling: true } }) },
              { requiredKeys: [] },
            ),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: ['tests', 'task'] },
    );
    fc.assert(
      fc.property(arbitraryConfig, (value) => {
        const config = { $schema: './node_modules/stopwise/schemas/stopwise-config.schema.json', ...value };
        const result = parseStopwiseConfig(config);
        expect(result.ok, result.ok ? '' : result.message).toBe(true);
        expect(validate(config), JSON.stringify(validate.errors)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses what the hook refuses, but for the checks across fields it leaves to the hook', () => {
    const base = { tests: { command: 'npm test' } };
    for (const value of [
      {},
      { tests: {} },
      { tests: { command: '' } },
      { ...base, unknown: 1 },
      { ...base, apiKey: 'sk-123' },
      { ...base, judge: { client: 'none' } },
      { tests: { command: 'npm test', report: { format: 'xunit' } } },
      { tests: { command: 'npm test', timeoutMs: 2 ** 31 } },
      { ...base, decisionModel: { client: 'gpt' } },
      { ...base, maxConsecutiveBlocks: 0 },
      { ...base, toolGuard: { ladder: { nudges: -1 } } },
      { ...base, toolGuard: { stall: { sameCall: { repeats: 3 } } } },
    ]) {
      expect(parseStopwiseConfig(value).ok, JSON.stringify(value)).toBe(false);
      expect(validate(value), JSON.stringify(value)).toBe(false);
    }
    // Across fields, and the protocol of a URL (JSON Schema's uri format takes any scheme).
    for (const value of [
      { ...base, decisionModel: { client: 'system-one' } },
      { ...base, task: 't', decisionModel: { client: 'openai-compatible', baseURL: 'ftp://x', model: 'm' } },
    ]) {
      expect(parseStopwiseConfig(value).ok, JSON.stringify(value)).toBe(false);
      expect(validate(value), JSON.stringify(value)).toBe(true);
    }
  });
});

describe('loadStopwiseConfig', () => {
  function project(): string {
    const root = folder();
    mkdirSync(join(root, 'packages/app/src'), { recursive: true });
    return root;
  }

  it('finds the file in a parent folder, the nearest first, then in the next start folder; that folder is the project', async () => {
    const root = project();
    writeFileSync(join(root, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'outer' } }));
    expect(await loadStopwiseConfig([join(root, 'packages/app/src')])).toMatchObject({ ok: true, projectDir: root, path: join(root, 'stopwise.config.json'), config: { tests: { command: 'outer' } } });
    writeFileSync(join(root, 'packages/app/stopwise.config.json'), JSON.stringify({ tests: { command: 'inner' } }));
    expect(await loadStopwiseConfig([join(root, 'packages/app/src')])).toMatchObject({ ok: true, projectDir: join(root, 'packages/app'), config: { tests: { command: 'inner' } } });
    const elsewhere = folder();
    expect(await loadStopwiseConfig([elsewhere, root])).toMatchObject({ ok: true, projectDir: root });
    expect(await findConfigFile([elsewhere])).toBeUndefined();
  });

  it('says where it looked when there is none, each folder once', async () => {
    const elsewhere = folder();
    const other = folder();
    expect(await loadStopwiseConfig([elsewhere, `${elsewhere}/`, join(elsewhere, 'sub', '..')])).toEqual({
      ok: false,
      kind: 'missing',
      message: `no stopwise.config.json in ${elsewhere} or any parent folder`,
    });
    expect(missingConfigMessage([elsewhere, other, elsewhere])).toBe(`no stopwise.config.json in ${elsewhere} or ${other} or any parent folder`);
    expect(missingConfigMessage([])).toBe('no stopwise.config.json in the current folder or any parent folder');
  });

  it('names the file before each problem of an invalid configuration, and reads bad JSON as invalid; a byte order mark is fine', async () => {
    const root = project();
    const path = join(root, 'stopwise.config.json');
    writeFileSync(path, JSON.stringify({ tests: { command: 3 }, stateDir: '' }));
    expect(await loadStopwiseConfig([root])).toEqual({
      ok: false,
      kind: 'invalid',
      path,
      message: `${path}: tests.command: expected a string, got 3\n${path}: stateDir: must not be empty, got ""`,
    });
    writeFileSync(path, '{ "tests": ');
    expect(await loadStopwiseConfig([root])).toMatchObject({ ok: false, kind: 'invalid', message: expect.stringMatching(/not valid JSON/) });
    writeFileSync(path, '[1]');
    expect(await loadStopwiseConfig([root])).toMatchObject({ ok: false, kind: 'invalid', message: `${path}: the configuration must be a JSON object, got an array` });
    writeFileSync(path, `\ufeff${JSON.stringify({ tests: { command: 'x' } })}`);
    expect((await loadStopwiseConfig([root])).ok).toBe(true);
  });

  it('reads the policy file the configuration names, relative to its folder: a document for its task type, or the numbers', async () => {
    const root = project();
    mkdirSync(join(root, 'ops'));
    const document = { version: 2, rules: [{ id: 'bugfix_green', when: { all: [{ taskType: 'bugfix' }, { tests: 'passed' }] }, then: { kind: 'stop', exit: 'success', reason: 'green' } }] };
    writeFileSync(join(root, 'ops/policy.json'), JSON.stringify(document));
    writeFileSync(join(root, 'ops/numbers.json'), JSON.stringify({ maxSteps: 7 }));
    const config = (extra: Record<string, unknown>) => writeFileSync(join(root, 'stopwise.config.json'), JSON.stringify({ tests: { command: 'x' }, ...extra }));
    config({ policy: 'ops/policy.json', taskType: 'bugfix' });
    expect(await loadStopwiseConfig([join(root, 'packages/app/src')])).toMatchObject({ ok: true, config: { policyFile: 'ops/policy.json', stopPolicy: { rules: [{ id: 'bugfix_green' }] } } });
    config({ policy: 'ops/numbers.json' });
    expect(await loadStopwiseConfig([root])).toMatchObject({ ok: true, config: { policy: { ...DEFAULT_POLICY, maxSteps: 7 } } });
    const path = join(root, 'stopwise.config.json');
    config({ policy: 'ops/policy.json', taskType: 'docs' });
    expect(await loadStopwiseConfig([root])).toEqual({
      ok: false,
      kind: 'invalid',
      path,
      message: `${path}: policy: ops/policy.json: no rule reads task type "docs" (a { "taskType": ... } condition); it has bugfix`,
    });
    config({ policy: 'ops/missing.json' });
    expect(await loadStopwiseConfig([root])).toMatchObject({ ok: false, message: `${path}: policy: ops/missing.json: no such file or folder` });
    writeFileSync(join(root, 'ops/policy.json'), JSON.stringify({ ...document, rules: [{ ...document.rules[0], when: { criteria: { gte: 2 } } }] }));
    config({ policy: 'ops/policy.json' });
    const invalid = await loadStopwiseConfig([root]);
    expect(invalid.ok).toBe(false);
    expect(invalid.ok ? '' : invalid.message).toMatch(/\/stopwise\.config\.json: policy: ops\/policy\.json: \.?rules\[0\]\.when\.criteria\.gte: must be at most 1, got 2$/);
  });
});
