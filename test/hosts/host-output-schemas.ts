import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import type { HookHost } from '../../src/hosts/hook-host.js';

const ajv = new Ajv({ allErrors: true, strict: true });
const folder = join(import.meta.dirname, '../fixtures/hosts');
const validators = {
  'claude-code': ajv.compile(JSON.parse(readFileSync(join(folder, 'claude-code-stop-output.schema.json'), 'utf8'))),
  codex: ajv.compile(JSON.parse(readFileSync(join(folder, 'codex-stop.command.output.schema.json'), 'utf8'))),
  cursor: ajv.compile(JSON.parse(readFileSync(join(folder, 'cursor-stop-output.schema.json'), 'utf8'))),
};

/** Validates a hook answer against the host's output schema; returns the problems (empty when valid). */
export function hostOutputProblems(host: HookHost, output: unknown): string[] {
  const validate = validators[host];
  if (validate(output)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'invalid'}`);
}
