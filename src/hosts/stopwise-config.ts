import { dirname } from 'node:path';
import * as z from 'zod/mini';
import { describeValue } from '../core/describe-value.js';
import { optionalBuiltOnUse } from '../core/optional-built-on-use.js';
import { isStopPolicyDocumentShape, parseStopPolicy } from '../core/policy/parse-stop-policy.js';
import type { StopPolicyDocument } from '../core/policy/stop-policy-document.js';
import { stopPolicySchema } from '../core/policy/stop-policy-schema.js';
import { policyTaskTypes } from '../core/policy/policy-task-types.js';
import { policyRulesWith } from '../core/policy/policy-reads-criteria.js';
import { schemaProblems, formatSchemaProblems, type SchemaProblem } from '../core/schema-issues.js';
import { DEFAULT_POLICY, createStopPolicy, stopPolicyNumbersSchema, type StopPolicy } from '../core/stop-policy.js';
import { stallOptionsInputSchema } from '../core/stall-detection/stall-schemas.js';
import { DECISION_MODEL_CLIENTS, type DecisionModelClientName } from '../decision-model/decision-model-clients.js';
import { loadPolicyFile } from '../input/load-policy-file.js';
import type { TestReportOptions } from '../evidence/run-tests.js';
import {
  CONFIG_FILE_NAME,
  DEFAULT_DECISION_MODEL_TIMEOUT_MS,
  DEFAULT_STATE_DIR,
  DEFAULT_TEST_TIMEOUT_MS,
  MAX_TIMEOUT_MS,
  prefixLines,
  readConfigFile,
  TOOL_EVENT_KEYS,
} from './config-file.js';
import { resolveToolGuardOptions, type ToolGuardOptions } from './tool-guard.js';


const nonEmpty = () => z.string().check(z.minLength(1));
const timeoutMs = () => z.int().check(z.positive(), z.maximum(MAX_TIMEOUT_MS));

/** The tool guard's settings: on or off, its ladder, and the stall detector's options (over the default tool identities). */
const toolGuardSchema = optionalBuiltOnUse(() =>
  z.strictObject({
    enabled: z.exactOptional(z.boolean()),
    ladder: z.exactOptional(
      z.strictObject({
        nudges: z.exactOptional(z.int().check(z.minimum(0), z.maximum(100))),
        refusals: z.exactOptional(z.int().check(z.minimum(0), z.maximum(100))),
        handOff: z.exactOptional(z.boolean()),
      }),
    ),
    stall: optionalBuiltOnUse(() => stallOptionsInputSchema),
  }),
);

/**
 * `stopwise.config.json`: the one definition. The hook, `init` and `doctor`
 * read it with this schema, and `schemas/stopwise-config.schema.json` is
 * generated from it. Its heavy parts (a policy document, stall options) are
 * built only when a file has them.
 */
export const stopwiseConfigSchema = z.strictObject({
  $schema: z.exactOptional(z.string()),
  task: z.exactOptional(z.string()),
  acceptance: z.exactOptional(z.array(nonEmpty())),
  tests: z.strictObject({
    command: nonEmpty(),
    args: z.exactOptional(z.array(z.string())),
    report: z.exactOptional(z.strictObject({ format: z.enum(['junit', 'tap', 'vitest-json', 'jest-json', 'exit-code']), path: z.exactOptional(nonEmpty()) })),
    timeoutMs: z.exactOptional(timeoutMs()),
  }),
  /** The decision model the hook asks: none, a client stopwise builds, its address and model, the variable holding the key. */
  decisionModel: z.exactOptional(
    z.strictObject({
      client: z.enum(['none', ...DECISION_MODEL_CLIENTS]),
      baseURL: z.exactOptional(z.url({ protocol: /^https?$/ })),
      model: z.exactOptional(nonEmpty()),
      apiKeyEnv: z.exactOptional(z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'must be the name of an environment variable (letters, digits and underscores), not the key itself' }))),
      timeoutMs: z.exactOptional(timeoutMs()),
    }),
  ),
  policy: optionalBuiltOnUse(() => z.union([nonEmpty(), stopPolicyNumbersSchema, stopPolicySchema])),
  taskType: z.exactOptional(nonEmpty()),
  maxConsecutiveBlocks: z.exactOptional(z.int().check(z.positive())),
  stateDir: z.exactOptional(nonEmpty()),
  outcomesFile: z.exactOptional(nonEmpty()),
  toolGuard: toolGuardSchema,
});

/** The keys a tool event reads, by their parts of the same schema. */
const toolEventConfigSchema = z.pick(stopwiseConfigSchema, Object.fromEntries(TOOL_EVENT_KEYS.map((key) => [key, true])) as Record<(typeof TOOL_EVENT_KEYS)[number], true>);

/** Validates the keys of the configuration a tool event reads (see `loadToolGuardConfig`), every problem at once. */
export function parseToolEventKeys(
  read: Readonly<Record<string, unknown>>,
): { readonly ok: true; readonly keys: z.infer<typeof toolEventConfigSchema> } | { readonly ok: false; readonly message: string } {
  const parsed = toolEventConfigSchema.safeParse(read, { reportInput: true });
  return parsed.success ? { ok: true, keys: parsed.data } : { ok: false, message: formatSchemaProblems(schemaProblems(toolEventConfigSchema, parsed.error.issues, read)) };
}

/** How the hook runs the project's tests. */
export interface TestCommandConfig {
  /** The program (with `args`, run without a shell) or a whole command line (without `args`, run in a shell). */
  readonly command: string;
  readonly args?: readonly string[];
  /** Where the result is read: a report file (`path`) or stdout, or the exit code alone; without it, TAP on stdout and the exit code. */
  readonly report?: TestReportOptions;
  readonly timeoutMs: number;
}

/** A validated `stopwise.config.json` with every default filled in. */
export interface StopwiseConfig {
  readonly task: string;
  readonly acceptance: readonly string[];
  readonly tests: TestCommandConfig;
  readonly decisionModel: {
    readonly client: 'none' | DecisionModelClientName;
    readonly baseURL?: string;
    readonly model?: string;
    /** The environment variable that holds the API key; the key itself is never in the file. */
    readonly apiKeyEnv?: string;
    readonly timeoutMs: number;
  };
  /** The numbers of the hook preset (the defaults when the policy is a document). */
  readonly policy: StopPolicy;
  /** A stop policy document the hook decides with instead of the hook preset: inline, or read from `policyFile`. */
  readonly stopPolicy?: StopPolicyDocument;
  /** The policy file `policy` names, relative to the folder that holds the configuration. */
  readonly policyFile?: string;
  /** The kind of task the project's runs are, for `taskType` conditions and the outcome records. */
  readonly taskType?: string;
  readonly maxConsecutiveBlocks: number;
  /** The state folder, relative to the folder that holds the configuration file. */
  readonly stateDir: string;
  /** The outcomes file each stop the hook lets through or hands off is appended to (relative like `stateDir`); none when absent. */
  readonly outcomesFile?: string;
  readonly toolGuard: ToolGuardOptions;
}

const SECRET_KEY = /^(api[_-]?key|key|token|secret|password|authorization|bearer)$/i;

/**
 * Validates the parsed contents of `stopwise.config.json` and fills in the
 * defaults. Never throws: every problem comes back at once, one a line, each
 * naming the key and, for a misspelt one, the nearest known key. An API key
 * written in the file is refused. A `policy` that is a path is kept as
 * `policyFile` for `loadStopwiseConfig` to read.
 *
 * @example
 * parseStopwiseConfig({ tests: { command: 'npm', args: ['test'] } });
 * // { ok: true, config: { task: '', acceptance: [], tests: { command: 'npm', args: ['test'], timeoutMs: 240000 }, ... } }
 */
export function parseStopwiseConfig(value: unknown): { readonly ok: true; readonly config: StopwiseConfig } | { readonly ok: false; readonly message: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: `the configuration must be a JSON object, got ${describeValue(value)}` };
  }
  const record = value as Record<string, unknown>;
  const secrets = secretKeys(record);
  if (secrets.length > 0) {
    return {
      ok: false,
      message: secrets.map((key) => `${key}: an API key is never written in ${CONFIG_FILE_NAME}; keep it in an environment variable and put that variable's name in decisionModel.apiKeyEnv`).join('\n'),
    };
  }
  const parsed = stopwiseConfigSchema.safeParse(record, { reportInput: true });
  if (!parsed.success) return { ok: false, message: formatSchemaProblems(schemaProblems(stopwiseConfigSchema, parsed.error.issues, record)) };
  const data = parsed.data;
  const problems: SchemaProblem[] = [];
  const model = data.decisionModel ?? { client: 'none' as const };
  const task = data.task?.trim() ?? '';
  if (model.client !== 'none' && task === '') problems.push({ path: 'task', message: `required when decisionModel.client is "${model.client}" (the decision model judges the output against it)` });
  if (model.client === 'openai-compatible') {
    if (model.baseURL === undefined) problems.push({ path: 'decisionModel.baseURL', message: 'required when decisionModel.client is "openai-compatible"' });
    if (model.model === undefined) problems.push({ path: 'decisionModel.model', message: 'required when decisionModel.client is "openai-compatible"' });
  }
  if (data.tests.report?.format === 'exit-code' && data.tests.report.path !== undefined) {
    problems.push({ path: 'tests.report.path', message: 'not used with format "exit-code" (no report is read: the exit code alone decides)' });
  }
  const policy = data.policy;
  const policyFile = typeof policy === 'string' ? policy : undefined;
  const stopPolicy = isStopPolicyDocumentShape(policy) ? parseStopPolicy(policy) : undefined;
  const unjudged = stopPolicy === undefined ? undefined : withoutModelProblem(stopPolicy, model.client, 'policy');
  if (unjudged !== undefined) problems.push(unjudged);
  if (data.taskType !== undefined && stopPolicy !== undefined) {
    const known = policyTaskTypes(stopPolicy);
    if (!known.includes(data.taskType)) problems.push({ path: 'taskType', message: `no rule of the policy reads task type "${data.taskType}" (a { "taskType": ... } condition); it has ${known.length === 0 ? 'none' : known.join(', ')}` });
  }
  if (problems.length > 0) return { ok: false, message: formatSchemaProblems(problems) };
  const tests = data.tests;
  return {
    ok: true,
    config: {
      task,
      acceptance: data.acceptance ?? [],
      tests: {
        command: tests.command,
        ...(tests.args === undefined ? {} : { args: tests.args }),
        ...(tests.report === undefined ? {} : { report: (tests.report.format === 'exit-code' || tests.report.path === undefined ? { format: tests.report.format } : tests.report) as TestReportOptions }),
        timeoutMs: tests.timeoutMs ?? DEFAULT_TEST_TIMEOUT_MS,
      },
      decisionModel: { ...model, timeoutMs: model.timeoutMs ?? DEFAULT_DECISION_MODEL_TIMEOUT_MS },
      policy: typeof policy === 'object' && stopPolicy === undefined ? createStopPolicy(policy as Partial<StopPolicy>) : DEFAULT_POLICY,
      ...(stopPolicy === undefined ? {} : { stopPolicy }),
      ...(policyFile === undefined ? {} : { policyFile }),
      ...(data.taskType === undefined ? {} : { taskType: data.taskType }),
      maxConsecutiveBlocks: data.maxConsecutiveBlocks ?? 1,
      stateDir: data.stateDir ?? DEFAULT_STATE_DIR,
      ...(data.outcomesFile === undefined ? {} : { outcomesFile: data.outcomesFile }),
      toolGuard: resolveToolGuardOptions(data.toolGuard),
    },
  };
}

function secretKeys(record: Record<string, unknown>): string[] {
  const found = Object.keys(record).filter((key) => SECRET_KEY.test(key));
  const model = record.decisionModel;
  if (typeof model === 'object' && model !== null && !Array.isArray(model)) found.push(...Object.keys(model).filter((key) => SECRET_KEY.test(key)).map((key) => `decisionModel.${key}`));
  return found;
}

/** A configuration file found and validated, or why there is none. */
export type LoadedStopwiseConfig =
  | { readonly ok: true; readonly config: StopwiseConfig; readonly path: string; readonly projectDir: string }
  | { readonly ok: false; readonly kind: 'missing' | 'invalid'; readonly message: string; readonly path?: string };

/**
 * Looks for `stopwise.config.json` in each start folder and its parents, in
 * order, and returns the first one found, validated; the folder that holds it
 * is the project. A policy file it names (relative to that folder) is read
 * too: a stop policy document or the four numbers of the hook preset.
 */
export async function loadStopwiseConfig(startDirs: readonly string[]): Promise<LoadedStopwiseConfig> {
  const found = await readConfigFile(startDirs);
  return found.ok ? checkConfigFile(found.path, found.value) : found;
}

/** Validates the configuration read from `path` (its parsed JSON), and reads the policy file it names. */
export async function checkConfigFile(path: string, value: object): Promise<LoadedStopwiseConfig> {
  const parsed = parseStopwiseConfig(value);
  if (!parsed.ok) return { ok: false, kind: 'invalid', path, message: prefixLines(path, parsed.message) };
  const config = parsed.config;
  const projectDir = dirname(path);
  if (config.policyFile === undefined) return { ok: true, config, path, projectDir };
  const policy = await loadPolicyFile(config.policyFile, projectDir, config.taskType === undefined ? {} : { taskType: config.taskType });
  if (!policy.ok) return { ok: false, kind: 'invalid', path, message: prefixLines(path, `policy: ${policy.message}`) };
  const unjudged = 'document' in policy ? withoutModelProblem(policy.document, config.decisionModel.client, `policy (${config.policyFile})`) : undefined;
  if (unjudged !== undefined) return { ok: false, kind: 'invalid', path, message: prefixLines(path, formatSchemaProblems([unjudged])) };
  return { ok: true, config: { ...config, ...('document' in policy ? { stopPolicy: policy.document } : { policy: policy.numbers }) }, path, projectDir };
}

/**
 * A policy that compares criterion probabilities and says nothing about a stop without a decision model, while none is
 * configured: its criteria rules never hold, so red tests would not be blocked and every stop would go to a person.
 */
function withoutModelProblem(policy: StopPolicyDocument, client: string, path: string): SchemaProblem | undefined {
  if (client !== 'none') return undefined;
  const judged = policyRulesWith(policy, 'criteria');
  if (judged.length === 0 || policyRulesWith(policy, 'decisionModel').length > 0) return undefined;
  return {
    path,
    message:
      `rules ${judged.join(', ')} compare criterion probabilities and no rule says what to do without a decision model, ` +
      'while decisionModel.client is "none": configure a decision model, or add rules for { "decisionModel": "none" } (as the hook preset has)',
  };
}
