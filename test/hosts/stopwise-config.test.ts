import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/core/stop-policy.js';
import { parseStopwiseConfig } from '../../src/hosts/stopwise-config.js';

const message = (value: unknown): string => {
  const parsed = parseStopwiseConfig(value);
  if (parsed.ok) throw new Error('expected the configuration to be refused');
  return parsed.message;
};

describe('parseStopwiseConfig', () => {
  it('fills in every default around the test command', () => {
    const parsed = parseStopwiseConfig({ tests: { command: 'npm', args: ['test'] } });
    expect(parsed).toEqual({
      ok: true,
      config: {
        task: '',
        acceptance: [],
        tests: { command: 'npm', args: ['test'], timeoutMs: 240_000 },
        judge: { client: 'none', timeoutMs: 30_000 },
        policy: DEFAULT_POLICY,
        maxConsecutiveBlocks: 1,
        stateDir: '.stopwise/state',
      },
    });
  });

  it('reads a full configuration', () => {
    const parsed = parseStopwiseConfig({
      $schema: 'https://example.invalid/schema.json',
      task: 'Add rate limiting to the login endpoint',
      acceptance: ['five failed logins lock the account for 15 minutes'],
      tests: { command: 'npx', args: ['vitest', 'run'], report: { format: 'vitest-json', path: 'r.json' }, timeoutMs: 60_000 },
      judge: { client: 'system-one', baseURL: 'https://api.example.invalid/v1', model: 'so-1', apiKeyEnv: 'MY_KEY', timeoutMs: 5_000 },
      policy: { doneThreshold: 0.8, maxSteps: 6 },
      maxConsecutiveBlocks: 3,
      stateDir: 'tmp/state',
    });
    expect(parsed.ok && parsed.config).toMatchObject({
      task: 'Add rate limiting to the login endpoint',
      tests: { report: { format: 'vitest-json', path: 'r.json' }, timeoutMs: 60_000 },
      judge: { client: 'system-one', apiKeyEnv: 'MY_KEY', timeoutMs: 5_000 },
      policy: { doneThreshold: 0.8, maxSteps: 6, midBandLow: 0.4, stallRounds: 3 },
      maxConsecutiveBlocks: 3,
      stateDir: 'tmp/state',
    });
  });

  it('names the key and the problem', () => {
    expect(message({})).toBe('tests: required (an object)');
    expect(message({ tests: { command: 42 } })).toBe('tests.command: expected a non-empty string, got 42');
    expect(message({ tests: { command: '' } })).toBe('tests.command: must not be empty');
    expect(message({ tests: { command: 'x', timeoutMs: 0 } })).toBe('tests.timeoutMs: must be above 0, got 0');
    expect(message({ tests: { command: 'x', report: { format: 'xml' } } })).toBe(
      'tests.report.format: must be one of "junit", "tap", "vitest-json", "jest-json", "exit-code", got "xml"',
    );
    expect(message({ tests: { command: 'x' }, maxConsecutiveBlocks: 1.5 })).toMatch(/^maxConsecutiveBlocks: expected a number, got 1.5/);
    expect(message({ tests: { command: 'x' }, judge: { client: 'gpt' } })).toMatch(/^judge.client: must be one of "none", "system-one", "openai-compatible"/);
    expect(message({ tests: { command: 'x' }, judge: { client: 'system-one', baseURL: 'not a url' }, task: 't' })).toBe(
      'judge.baseURL: must be an http(s) URL, got "not a url"',
    );
  });

  it('refuses a timeout longer than the longest timer Node can run', () => {
    expect(message({ tests: { command: 'x', timeoutMs: 3_000_000_000 } })).toBe(
      'tests.timeoutMs: must be at most 2147483647 (about 24.8 days, the longest timer Node can run), got 3000000000',
    );
    expect(message({ tests: { command: 'x' }, judge: { client: 'none', timeoutMs: 2 ** 31 } })).toMatch(/^judge.timeoutMs: must be at most 2147483647 /);
    const longest = parseStopwiseConfig({ tests: { command: 'x', timeoutMs: 2 ** 31 - 1 }, judge: { client: 'none', timeoutMs: 2 ** 31 - 1 } });
    expect(longest.ok && [longest.config.tests.timeoutMs, longest.config.judge.timeoutMs]).toEqual([2 ** 31 - 1, 2 ** 31 - 1]);
  });

  it('reads the exit-code evidence mode, which takes no report path', () => {
    const parsed = parseStopwiseConfig({ tests: { command: 'make test', report: { format: 'exit-code' } } });
    expect(parsed.ok && parsed.config.tests).toEqual({ command: 'make test', report: { format: 'exit-code' }, timeoutMs: 240_000 });
    expect(message({ tests: { command: 'make test', report: { format: 'exit-code', path: 'r.xml' } } })).toBe(
      'tests.report.path: not used with format "exit-code" (no report is read: the exit code alone decides)',
    );
  });

  it('reports every problem, one a line', () => {
    expect(message({ tests: { command: 1, args: 'x' }, acceptance: [''] }).split('\n')).toHaveLength(3);
  });

  it('refuses unknown keys, listing the known ones', () => {
    expect(message({ tests: { command: 'x' }, colour: 2 })).toBe(
      'unknown key "colour"; expected task, acceptance, tests, judge, policy, taskType, maxConsecutiveBlocks, stateDir, toolGuard, outcomesFile',
    );
    expect(message({ tests: { command: 'x', cmd: 'y' } })).toBe('tests: unknown key "cmd"; expected command, args, report, timeoutMs');
    expect(message({ tests: { command: 'x', report: { format: 'tap', file: 'r.tap' } } })).toBe('tests.report: unknown key "file"; expected format, path');
    expect(message({ tests: { command: 'x' }, judge: { client: 'none', url: 'u', key2: 1 } })).toBe(
      'judge: unknown keys "url", "key2"; expected client, baseURL, model, apiKeyEnv, timeoutMs',
    );
  });

  it('names the nearest known key for a misspelt one, at every level', () => {
    expect(message({ tests: { command: 'x' }, maxConsecutiveBlock: 2 })).toBe('unknown key "maxConsecutiveBlock" (did you mean "maxConsecutiveBlocks"?)');
    expect(message({ tests: { comand: 'x' } }).split('\n')).toEqual([
      'tests.command: required (a non-empty string)',
      'tests: unknown key "comand" (did you mean "command"?)',
    ]);
    expect(message({ tests: { command: 'x', report: { fromat: 'tap' } } }).split('\n')).toContain(
      'tests.report: unknown key "fromat" (did you mean "format"?)',
    );
    expect(message({ tests: { command: 'x' }, judge: { client: 'none', baseUrl: 'http://x', timeout: 5 } }).split('\n')).toEqual([
      'judge: unknown key "baseUrl" (did you mean "baseURL"?)',
      'judge: unknown key "timeout" (did you mean "timeoutMs"?)',
    ]);
    expect(message({ tests: { command: 'x' }, policy: { maxStep: 3 } })).toBe('policy: unknown key "maxStep" (did you mean "maxSteps"?)');
  });

  it('keeps the list of known keys for unknown keys that resemble none, next to the suggestions', () => {
    expect(message({ tests: { command: 'x' }, judge: { client: 'none', url: 'u', modle: 'm' } }).split('\n')).toEqual([
      'judge: unknown key "modle" (did you mean "model"?)',
      'judge: unknown key "url"; expected client, baseURL, model, apiKeyEnv, timeoutMs',
    ]);
  });

  it('refuses an API key in the file and says where it belongs', () => {
    expect(message({ tests: { command: 'x' }, judge: { client: 'system-one', apiKey: 'sk-123' } })).toMatch(
      /^judge.apiKey: an API key is never written in stopwise.config.json; .*judge.apiKeyEnv$/,
    );
    expect(message({ tests: { command: 'x' }, token: 'abc' })).toMatch(/^token: an API key is never written/);
    expect(message({ tests: { command: 'x' }, task: 't', judge: { client: 'system-one', apiKeyEnv: 'sk-live-123' } })).toMatch(
      /^judge.apiKeyEnv: must be the name of an environment variable/,
    );
  });

  it('validates the policy with the core rules', () => {
    expect(message({ tests: { command: 'x' }, policy: { midBandLow: 0.9 } })).toBe(
      'policy.midBandLow (0.9) must not be above policy.doneThreshold (0.7)',
    );
    expect(message({ tests: { command: 'x' }, policy: { maxStep: 3 } })).toMatch(/^policy: unknown key "maxStep"/);
  });

  it('takes the path of a policy file and a task type, left for loadStopwiseConfig to read', () => {
    const parsed = parseStopwiseConfig({ tests: { command: 'x' }, policy: '.stopwise/policy.json', taskType: 'bugfix' });
    expect(parsed).toMatchObject({ ok: true, config: { policy: DEFAULT_POLICY, policyFile: '.stopwise/policy.json', taskType: 'bugfix' } });
    const inline = parseStopwiseConfig({ tests: { command: 'x' }, policy: { maxSteps: 4 } });
    expect(inline.ok && inline.config).not.toHaveProperty('policyFile');
  });

  it('refuses a task type without a policy file, and a policy that is neither an object nor a path', () => {
    expect(message({ tests: { command: 'x' }, taskType: 'bugfix' })).toBe(
      'taskType: needs "policy" to name a policy file written by `stopwise calibrate --policy-out` (the task type picks its "byTaskType" entry)',
    );
    expect(message({ tests: { command: 'x' }, policy: { maxSteps: 4 }, taskType: 'bugfix' })).toMatch(/^taskType: needs "policy" to name a policy file/);
    expect(message({ tests: { command: 'x' }, policy: 42 })).toBe('policy: expected a policy object or the path of a policy file, got 42');
    expect(message({ tests: { command: 'x' }, policy: '' })).toBe('policy: must not be empty');
    expect(message({ tests: { command: 'x' }, policy: 'p.json', taskType: '' })).toBe('taskType: must not be empty');
  });

  it('asks for the task when a decision model judges, and for the model details of an OpenAI-compatible server', () => {
    expect(message({ tests: { command: 'x' }, judge: { client: 'system-one' } })).toMatch(/^task: required when judge.client is "system-one"/);
    expect(message({ tests: { command: 'x' }, task: 't', judge: { client: 'openai-compatible' } })).toBe(
      'judge.baseURL: required when judge.client is "openai-compatible"\njudge.model: required when judge.client is "openai-compatible"',
    );
  });

  it('takes an outcomes file, which must not be empty', () => {
    const read = parseStopwiseConfig({ tests: { command: 'npm' }, outcomesFile: '.stopwise/outcomes.jsonl' });
    expect(read.ok && read.config.outcomesFile).toBe('.stopwise/outcomes.jsonl');
    const none = parseStopwiseConfig({ tests: { command: 'npm' } });
    expect(none.ok && 'outcomesFile' in none.config).toBe(false);
    expect(parseStopwiseConfig({ tests: { command: 'npm' }, outcomesFile: '' })).toEqual({ ok: false, message: 'outcomesFile: must not be empty' });
  });

  it('refuses something that is not an object', () => {
    expect(message([])).toBe('the configuration must be a JSON object, got an array');
    expect(message(null)).toBe('the configuration must be a JSON object, got null');
  });
});
