import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import type { HookHost } from '../../src/hosts/hook-host.js';

const ajv = new Ajv({ allErrors: true, strict: true });
const folder = join(import.meta.dirname, '../fixtures/hosts');
const compile = (file: string): ValidateFunction => ajv.compile(JSON.parse(readFileSync(join(folder, file), 'utf8')) as object);
const validators: Readonly<Record<HookHost, ValidateFunction>> = {
  'claude-code': compile('claude-code-stop-output.schema.json'),
  codex: compile('codex-stop.command.output.schema.json'),
  cursor: compile('cursor-stop-output.schema.json'),
  copilot: compile('copilot/agent-stop.output.schema.json'),
  gemini: compile('gemini/after-agent.output.schema.json'),
};

/** The tool events whose stdout answers have a schema. */
const toolValidators: Readonly<Record<string, ValidateFunction>> = {
  'copilot:preToolUse': compile('copilot/pre-tool-use.output.schema.json'),
  'gemini:BeforeTool': compile('gemini/before-tool.output.schema.json'),
  'gemini:AfterTool': compile('gemini/after-tool.output.schema.json'),
};

function problems(validate: ValidateFunction, output: unknown): string[] {
  if (validate(output)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'invalid'}`);
}

/** Validates a hook answer against the host's output schema; returns the problems (empty when valid). */
export function hostOutputProblems(host: HookHost, output: unknown): string[] {
  return problems(validators[host], output);
}

/** Validates a tool hook's stdout answer against the schema of the host's event; throws for an event that has none. */
export function toolOutputProblems(host: HookHost, event: string, output: unknown): string[] {
  const validate = toolValidators[`${host}:${event}`];
  if (validate === undefined) throw new Error(`no output schema for ${host} ${event}`);
  return problems(validate, output);
}
