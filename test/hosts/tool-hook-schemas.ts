import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import type { HookHost } from '../../src/hosts/hook-host.js';

const ajv = new Ajv({ allErrors: true, strict: false });
const folder = join(import.meta.dirname, '../fixtures/hosts');
const load = (name: string): ValidateFunction => ajv.compile(JSON.parse(readFileSync(join(folder, name), 'utf8')));

const outputs: Readonly<Record<string, ValidateFunction>> = {
  'claude-code PreToolUse': load('claude-code-pre-tool-use-output.schema.json'),
  'codex PreToolUse': load('codex-pre-tool-use.command.output.schema.json'),
  'codex PostToolUse': load('codex-post-tool-use.command.output.schema.json'),
  'cursor beforeShellExecution': load('cursor-before-execution-output.schema.json'),
  'cursor beforeMCPExecution': load('cursor-before-execution-output.schema.json'),
};
const codexInputs: Readonly<Record<string, ValidateFunction>> = {
  PreToolUse: load('codex-pre-tool-use.command.input.schema.json'),
  PostToolUse: load('codex-post-tool-use.command.input.schema.json'),
};

function problems(validate: ValidateFunction, value: unknown): string[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'invalid'}`);
}

/** Validates a tool hook answer against the schema of the host's event; an event with no schema here accepts no answer at all. */
export function toolHookOutputProblems(host: HookHost, event: string, output: unknown): string[] {
  const validate = outputs[`${host} ${event}`];
  return validate === undefined ? [`${host} ${event} takes no answer, got one`] : problems(validate, output);
}

/** Validates a Codex tool hook payload against the input schema Codex publishes for the event. */
export function codexToolInputProblems(event: 'PreToolUse' | 'PostToolUse', input: unknown): string[] {
  return problems(codexInputs[event] as ValidateFunction, input);
}
