import { createStopPolicy, type StopPolicy } from '../core/stop-policy.js';
import type { TestReportOptions } from '../evidence/run-tests.js';
import { DEFAULT_JUDGE_TIMEOUT_MS, DEFAULT_STATE_DIR, DEFAULT_TEST_TIMEOUT_MS, MAX_TIMEOUT_MS } from './stopwise-config-defaults.js';
import type { StopwiseConfig } from './stopwise-config.js';
import { parseToolGuardOptions } from './tool-guard-options.js';

const TOP_KEYS: ReadonlySet<string> = new Set(['$schema', 'task', 'acceptance', 'tests', 'judge', 'policy', 'maxConsecutiveBlocks', 'stateDir', 'toolGuard', 'outcomesFile']);
const TESTS_KEYS: ReadonlySet<string> = new Set(['command', 'args', 'report', 'timeoutMs']);
const REPORT_KEYS: ReadonlySet<string> = new Set(['format', 'path']);
const JUDGE_KEYS: ReadonlySet<string> = new Set(['client', 'timeoutMs']);
const POLICY_KEYS: ReadonlySet<string> = new Set(['doneThreshold', 'midBandLow', 'maxSteps', 'stallRounds']);
const FORMATS: ReadonlySet<string> = new Set(['junit', 'tap', 'vitest-json', 'jest-json']);

type Plain = Record<string, unknown>;

/**
 * The configuration `parseStopwiseConfig` gives for a plain
 * `stopwise.config.json`, read without its zod schema: known keys only, each
 * of the expected type, `judge.client` `"none"` (or no judge), and no value
 * that the full check would refuse. `undefined` for anything else, which
 * `parseStopwiseConfig` then reads (and explains, when it is wrong): a stop
 * hook with a plain configuration does not load zod.
 */
export function readPlainStopwiseConfig(value: unknown): StopwiseConfig | undefined {
  if (!isPlain(value, TOP_KEYS)) return undefined;
  const { $schema, task, acceptance, tests, judge, policy, maxConsecutiveBlocks, stateDir, toolGuard, outcomesFile } = value;
  if ($schema !== undefined && typeof $schema !== 'string') return undefined;
  if (task !== undefined && typeof task !== 'string') return undefined;
  if (acceptance !== undefined && !(Array.isArray(acceptance) && acceptance.every(isNonEmptyString))) return undefined;
  if (maxConsecutiveBlocks !== undefined && !(Number.isSafeInteger(maxConsecutiveBlocks) && (maxConsecutiveBlocks as number) > 0)) return undefined;
  if (stateDir !== undefined && !isNonEmptyString(stateDir)) return undefined;
  if (outcomesFile !== undefined && !isNonEmptyString(outcomesFile)) return undefined;
  const testCommand = plainTests(tests);
  if (testCommand === undefined) return undefined;
  let judgeTimeoutMs = DEFAULT_JUDGE_TIMEOUT_MS;
  if (judge !== undefined) {
    if (!isPlain(judge, JUDGE_KEYS) || judge.client !== 'none') return undefined;
    if (judge.timeoutMs !== undefined) {
      if (!isTimeout(judge.timeoutMs)) return undefined;
      judgeTimeoutMs = judge.timeoutMs;
    }
  }
  const stopPolicy = plainPolicy(policy);
  if (stopPolicy === undefined) return undefined;
  const guard = parseToolGuardOptions(toolGuard);
  if (!guard.ok) return undefined;
  return {
    task: typeof task === 'string' ? task.trim() : '',
    acceptance: acceptance === undefined ? [] : [...(acceptance as string[])],
    tests: testCommand,
    judge: { client: 'none', timeoutMs: judgeTimeoutMs },
    policy: stopPolicy,
    maxConsecutiveBlocks: (maxConsecutiveBlocks as number | undefined) ?? 1,
    stateDir: (stateDir as string | undefined) ?? DEFAULT_STATE_DIR,
    ...(toolGuard === undefined ? {} : { toolGuard: guard.options }),
    ...(outcomesFile === undefined ? {} : { outcomesFile: outcomesFile as string }),
  };
}

function plainTests(tests: unknown): StopwiseConfig['tests'] | undefined {
  if (!isPlain(tests, TESTS_KEYS) || !isNonEmptyString(tests.command)) return undefined;
  const { command, args, report, timeoutMs } = tests;
  if (args !== undefined && !(Array.isArray(args) && args.every((arg) => typeof arg === 'string'))) return undefined;
  if (timeoutMs !== undefined && !isTimeout(timeoutMs)) return undefined;
  let reportOptions: TestReportOptions | undefined;
  if (report !== undefined) {
    // 'exit-code' is left to the full check, which also refuses it with a path.
    if (!isPlain(report, REPORT_KEYS) || typeof report.format !== 'string' || !FORMATS.has(report.format)) return undefined;
    if (report.path !== undefined && !isNonEmptyString(report.path)) return undefined;
    const format = report.format as Exclude<TestReportOptions['format'], 'exit-code'>;
    reportOptions = report.path === undefined ? { format } : { format, path: report.path };
  }
  return {
    command,
    ...(args === undefined ? {} : { args: [...(args as string[])] }),
    ...(reportOptions === undefined ? {} : { report: reportOptions }),
    timeoutMs: (timeoutMs as number | undefined) ?? DEFAULT_TEST_TIMEOUT_MS,
  };
}

function plainPolicy(policy: unknown): StopPolicy | undefined {
  if (policy !== undefined && !(isPlain(policy, POLICY_KEYS) && Object.values(policy).every((number) => typeof number === 'number' && Number.isFinite(number)))) {
    return undefined;
  }
  try {
    return createStopPolicy((policy ?? {}) as Partial<StopPolicy>);
  } catch {
    return undefined;
  }
}

function isPlain(value: unknown, keys: ReadonlySet<string>): value is Plain {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.keys(value).every((key) => keys.has(key));
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

function isTimeout(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) > 0 && (value as number) <= MAX_TIMEOUT_MS;
}
