import * as z from 'zod/mini';
import { createStopPolicy, type StopPolicy } from '../core/stop-policy.js';
import { isStopPolicyDocumentShape, parseStopPolicyAt, policyTaskTypes } from '../core/policy/stop-policy-shape.js';
import type { StopPolicyDocument } from '../core/policy/stop-policy-document.js';
import { describeValue } from '../core/describe-value.js';
import { nearestName } from '../core/nearest-name.js';
import type { TestReportOptions } from '../evidence/run-tests.js';
import { parseToolGuardOptions, type ToolGuardOptions } from './tool-guard-options.js';
import { CONFIG_FILE_NAME, DEFAULT_JUDGE_TIMEOUT_MS, DEFAULT_STATE_DIR, DEFAULT_TEST_TIMEOUT_MS, MAX_TIMEOUT_MS } from './stopwise-config-defaults.js';

export { CONFIG_FILE_NAME, DEFAULT_JUDGE_TIMEOUT_MS, DEFAULT_STATE_DIR, DEFAULT_TEST_TIMEOUT_MS, MAX_TIMEOUT_MS };

/**
 * Where the hook reads the test result: a report format the test command
 * writes, or `'exit-code'`, no report at all (weaker evidence: exit 0 is one
 * passing check, anything else one failing check named after the command).
 */
export type TestReportFormat = TestReportOptions['format'];

/** How the hook runs the project's tests. */
export interface TestCommandConfig {
  /** The program (with `args`, run without a shell) or a whole command line (without `args`, run in a shell). */
  readonly command: string;
  readonly args?: readonly string[];
  /** Where the result is read: a report file (`path`) or stdout, or the exit code alone; without it, TAP on stdout and the exit code. */
  readonly report?: TestReportOptions;
  readonly timeoutMs: number;
}

/** Which decision model the hook asks, if any. */
export interface JudgeConfig {
  readonly client: 'none' | 'system-one' | 'openai-compatible';
  readonly baseURL?: string;
  readonly model?: string;
  /** The environment variable that holds the API key; the key itself is never in the file. */
  readonly apiKeyEnv?: string;
  readonly timeoutMs: number;
}

/** A validated `stopwise.config.json` with every default filled in. */
export interface StopwiseConfig {
  readonly task: string;
  readonly acceptance: readonly string[];
  readonly tests: TestCommandConfig;
  readonly judge: JudgeConfig;
  /** The policy: inline, or (after `loadStopwiseConfig`) read from `policyFile`; the defaults until then. */
  readonly policy: StopPolicy;
  /**
   * A stop policy document the hook decides with instead of the hook preset
   * (`policy` holds one inline, an object with `version` and `rules`, or names
   * a file that holds one); `policy` then keeps the defaults.
   */
  readonly stopPolicy?: StopPolicyDocument;
  /** The policy file `policy` names, as written (relative to the folder that holds the configuration). */
  readonly policyFile?: string;
  /** The task type whose `byTaskType` entry of `policyFile` is the policy. */
  readonly taskType?: string;
  readonly maxConsecutiveBlocks: number;
  /** The state folder, relative to the folder that holds the configuration file. */
  readonly stateDir: string;
  /** The tool guard of the tool hooks (`toolGuard`); absent: its defaults (see `parseToolGuardOptions`). */
  readonly toolGuard?: ToolGuardOptions;
  /** The outcomes file each stop the hook lets through or hands off is appended to (relative like `stateDir`); none when absent. */
  readonly outcomesFile?: string;
}

const nonEmpty = () => z.string().check(z.minLength(1));
const positiveInt = () => z.int().check(z.positive());
// Node clamps a longer timer to 1 ms (with a TimeoutOverflowWarning): the command would be killed at once.
const timeoutMs = () => z.int().check(z.positive(), z.maximum(MAX_TIMEOUT_MS));
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SECRET_KEY = /^(api[_-]?key|key|token|secret|password|authorization|bearer)$/i;

const schema = z.strictObject({
  $schema: z.optional(z.string()),
  task: z.optional(z.string()),
  acceptance: z.optional(z.array(nonEmpty())),
  tests: z.strictObject({
    command: nonEmpty(),
    args: z.optional(z.array(z.string())),
    report: z.optional(
      z.strictObject({
        format: z.enum(['junit', 'tap', 'vitest-json', 'jest-json', 'exit-code']),
        path: z.optional(nonEmpty()),
      }),
    ),
    timeoutMs: z.optional(timeoutMs()),
  }),
  judge: z.optional(
    z.strictObject({
      client: z.enum(['none', 'system-one', 'openai-compatible']),
      baseURL: z.optional(z.url({ protocol: /^https?$/ })),
      model: z.optional(nonEmpty()),
      apiKeyEnv: z.optional(z.string().check(z.regex(ENV_NAME))),
      timeoutMs: z.optional(timeoutMs()),
    }),
  ),
  policy: z.optional(
    z.strictObject({
      doneThreshold: z.optional(z.number()),
      midBandLow: z.optional(z.number()),
      maxSteps: z.optional(z.number()),
      stallRounds: z.optional(z.number()),
    }),
  ),
  taskType: z.optional(nonEmpty()),
  maxConsecutiveBlocks: z.optional(positiveInt()),
  stateDir: z.optional(nonEmpty()),
  // Checked by parseToolGuardOptions, which the plain reader shares.
  toolGuard: z.optional(z.unknown()),
  outcomesFile: z.optional(nonEmpty()),
});

/**
 * Validates the parsed contents of `stopwise.config.json` and fills in the
 * defaults. Never throws: a problem comes back as a message that names the
 * key (`tests.command: expected a non-empty string, got 42`), one problem a
 * line. An API key written in the file is refused. A `policy` that is a path
 * is kept as `policyFile` (with `taskType`) for `loadStopwiseConfig` to read.
 *
 * @example
 * parseStopwiseConfig({ tests: { command: 'npm', args: ['test'] } });
 * // { ok: true, config: { task: '', acceptance: [], tests: { command: 'npm', args: ['test'], timeoutMs: 240000 }, judge: { client: 'none', ... }, ... } }
 */
export function parseStopwiseConfig(
  value: unknown,
): { readonly ok: true; readonly config: StopwiseConfig } | { readonly ok: false; readonly message: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: `the configuration must be a JSON object, got ${describeValue(value)}` };
  }
  const secrets = findSecretKeys(value as Record<string, unknown>);
  if (secrets.length > 0) {
    return {
      ok: false,
      message: secrets
        .map((key) => `${key}: an API key is never written in ${CONFIG_FILE_NAME}; keep it in an environment variable and put that variable's name in judge.apiKeyEnv`)
        .join('\n'),
    };
  }
  // A string `policy` names a policy file, and an object with `rules` is a stop policy document: the schema checks
  // the inline numbers only.
  const { policy: policyValue, ...rest } = value as Record<string, unknown>;
  const policyFile = typeof policyValue === 'string' ? policyValue : undefined;
  let stopPolicy: StopPolicyDocument | undefined;
  if (isStopPolicyDocumentShape(policyValue)) {
    const parsedPolicy = parseStopPolicyAt('policy', policyValue);
    if (!parsedPolicy.ok) return { ok: false, message: parsedPolicy.message };
    stopPolicy = parsedPolicy.policy;
  }
  const early: string[] = [];
  if (policyFile === '') early.push('policy: must not be empty');
  else if (policyValue !== undefined && policyFile === undefined && (typeof policyValue !== 'object' || policyValue === null || Array.isArray(policyValue))) {
    early.push(`policy: expected a policy object or the path of a policy file, got ${describeValue(policyValue)}`);
  }
  const parsed = schema.safeParse(policyFile === undefined && stopPolicy === undefined && early.length === 0 ? value : rest, { reportInput: true });
  if (!parsed.success || early.length > 0) {
    return { ok: false, message: [...early, ...(parsed.success ? [] : parsed.error.issues.map(formatIssue))].join('\n') };
  }
  const data = parsed.data;

  const problems: string[] = [];
  let policy: StopPolicy | undefined;
  try {
    policy = createStopPolicy((data.policy ?? {}) as Partial<StopPolicy>);
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (data.taskType !== undefined && policyFile === undefined && stopPolicy === undefined) {
    problems.push('taskType: needs "policy" to name a policy file written by `stopwise calibrate --policy-out` (the task type picks its "byTaskType" entry)');
  }
  if (data.taskType !== undefined && stopPolicy !== undefined) {
    const known = policyTaskTypes(stopPolicy);
    if (!known.includes(data.taskType)) {
      problems.push(`taskType: no rule of the policy reads task type "${data.taskType}" (a { "taskType": ... } condition); it has ${known.length === 0 ? 'none' : known.join(', ')}`);
    }
  }
  const judge = data.judge ?? { client: 'none' as const };
  const task = data.task?.trim() ?? '';
  if (judge.client !== 'none' && task === '') {
    problems.push(`task: required when judge.client is "${judge.client}" (the decision model judges the output against it)`);
  }
  if (data.tests.report?.format === 'exit-code' && data.tests.report.path !== undefined) {
    problems.push('tests.report.path: not used with format "exit-code" (no report is read: the exit code alone decides)');
  }
  if (judge.client === 'openai-compatible') {
    if (judge.baseURL === undefined) problems.push('judge.baseURL: required when judge.client is "openai-compatible"');
    if (judge.model === undefined) problems.push('judge.model: required when judge.client is "openai-compatible"');
  }
  const toolGuard = parseToolGuardOptions(data.toolGuard);
  if (!toolGuard.ok) problems.push(toolGuard.message);
  if (problems.length > 0 || policy === undefined || !toolGuard.ok) return { ok: false, message: problems.join('\n') };

  const tests = data.tests;
  return {
    ok: true,
    config: {
      task,
      acceptance: data.acceptance ?? [],
      tests: {
        command: tests.command,
        ...(tests.args === undefined ? {} : { args: tests.args }),
        ...(tests.report === undefined ? {} : { report: reportOptions(tests.report.format, tests.report.path) }),
        timeoutMs: tests.timeoutMs ?? DEFAULT_TEST_TIMEOUT_MS,
      },
      judge: {
        client: judge.client,
        ...('baseURL' in judge && judge.baseURL !== undefined ? { baseURL: judge.baseURL } : {}),
        ...('model' in judge && judge.model !== undefined ? { model: judge.model } : {}),
        ...('apiKeyEnv' in judge && judge.apiKeyEnv !== undefined ? { apiKeyEnv: judge.apiKeyEnv } : {}),
        timeoutMs: ('timeoutMs' in judge ? judge.timeoutMs : undefined) ?? DEFAULT_JUDGE_TIMEOUT_MS,
      },
      policy,
      ...(stopPolicy === undefined ? {} : { stopPolicy }),
      ...(policyFile === undefined ? {} : { policyFile }),
      ...(data.taskType === undefined ? {} : { taskType: data.taskType }),
      maxConsecutiveBlocks: data.maxConsecutiveBlocks ?? 1,
      stateDir: data.stateDir ?? DEFAULT_STATE_DIR,
      ...(data.toolGuard === undefined ? {} : { toolGuard: toolGuard.options }),
      ...(data.outcomesFile === undefined ? {} : { outcomesFile: data.outcomesFile }),
    },
  };
}

function reportOptions(format: TestReportFormat, path: string | undefined): TestReportOptions {
  if (format === 'exit-code') return { format };
  return path === undefined ? { format } : { format, path };
}

function findSecretKeys(record: Record<string, unknown>): string[] {
  const found = Object.keys(record).filter((key) => SECRET_KEY.test(key));
  const judge = record.judge;
  if (typeof judge === 'object' && judge !== null && !Array.isArray(judge)) {
    found.push(...Object.keys(judge).filter((key) => SECRET_KEY.test(key)).map((key) => `judge.${key}`));
  }
  return found;
}

interface Issue {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly input?: unknown;
  readonly expected?: string;
  readonly origin?: string;
  readonly minimum?: number | bigint;
  readonly maximum?: number | bigint;
  readonly inclusive?: boolean;
  readonly values?: readonly unknown[];
  readonly keys?: readonly string[];
  readonly format?: string;
}

function formatIssue(issue: Issue): string {
  const path = issue.path.map(String).join('.');
  const where = path === '' ? '' : `${path}: `;
  const got = 'input' in issue ? `, got ${describeValue(issue.input)}` : '';
  switch (issue.code) {
    case 'invalid_type':
      if (!('input' in issue) || issue.input === undefined) return `${where}required (${expectedText(issue.expected, path)})`;
      return `${where}expected ${expectedText(issue.expected, path)}${got}`;
    case 'too_small':
      if (issue.origin === 'string') return `${where}must not be empty`;
      return `${where}must be ${issue.inclusive === false ? 'above' : 'at least'} ${String(issue.minimum)}${got}`;
    case 'too_big': {
      const why = path.endsWith('timeoutMs') ? ' (about 24.8 days, the longest timer Node can run)' : '';
      return `${where}must be ${issue.inclusive === false ? 'below' : 'at most'} ${String(issue.maximum)}${why}${got}`;
    }
    case 'invalid_value':
      return `${where}must be one of ${(issue.values ?? []).map((value) => JSON.stringify(value)).join(', ')}${got}`;
    case 'invalid_format':
      if (path === 'judge.apiKeyEnv') {
        return `${where}must be the name of an environment variable (letters, digits and underscores), not the key itself`;
      }
      return `${where}must be ${issue.format === 'url' ? 'an http(s) URL' : `a valid ${issue.format ?? 'value'}`}${got}`;
    case 'unrecognized_keys':
      return unknownKeyLines(where, issue.keys ?? [], knownKeys(issue.path));
    default:
      return `${where}${issue.message}`;
  }
}

/** A line for each unknown key that resembles a known one (naming it), and one for the rest (listing the known keys). */
function unknownKeyLines(where: string, keys: readonly string[], known: readonly string[] | undefined): string {
  const lines: string[] = [];
  const unlike: string[] = [];
  for (const key of keys) {
    const near = known === undefined ? undefined : nearestName(key, known);
    if (near === undefined) unlike.push(`"${key}"`);
    else lines.push(`${where}unknown key "${key}" (did you mean "${near}"?)`);
  }
  if (unlike.length > 0) {
    const hint = known === undefined ? '' : `; expected ${known.join(', ')}`;
    lines.push(`${where}unknown key${unlike.length === 1 ? '' : 's'} ${unlike.join(', ')}${hint}`);
  }
  return lines.join('\n');
}

/** The keys the schema knows at `path` (an object's own keys, `$schema` left out), or `undefined` when it is not an object. */
function knownKeys(path: readonly PropertyKey[]): string[] | undefined {
  let node: SchemaNode | undefined = schema as unknown as SchemaNode;
  for (const key of path) {
    node = node === undefined ? undefined : objectShape(node)?.[String(key)];
  }
  const shape = node === undefined ? undefined : objectShape(node);
  return shape === undefined ? undefined : Object.keys(shape).filter((key) => !key.startsWith('$'));
}

interface SchemaNode {
  readonly _zod: {
    readonly def: {
      readonly type: string;
      readonly shape?: Readonly<Record<string, SchemaNode>>;
      readonly innerType?: SchemaNode;
      readonly options?: readonly SchemaNode[];
    };
  };
}

/** The object shape of a node, through optionals and unions (the first object among the options). */
function objectShape(node: SchemaNode): Readonly<Record<string, SchemaNode>> | undefined {
  const def = node._zod.def;
  if (def.shape !== undefined) return def.shape;
  if (def.type === 'optional' && def.innerType !== undefined) return objectShape(def.innerType);
  if (def.type === 'union') {
    for (const option of def.options ?? []) {
      const shape = objectShape(option);
      if (shape !== undefined) return shape;
    }
  }
  return undefined;
}

function expectedText(expected: string | undefined, path: string): string {
  if (expected === 'string' && /^(tests\.command|tests\.report\.path|judge\.model|stateDir)$/.test(path)) return 'a non-empty string';
  if (expected === 'int' || expected === 'number') return 'a number';
  if (expected === 'array') return 'an array';
  if (expected === 'object') return 'an object';
  return `a ${expected ?? 'value'}`;
}
