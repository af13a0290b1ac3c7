import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import type { HookRun } from '../../src/hosts/run-hook.js';
import type { BlockCap, HookEvent, HookHost, HookOutput } from '../../src/hosts/host.js';

/** Where each host's contract fixtures are: `<host>/contract.json`, its payloads and its output schemas. */
export const FIXTURES = join(import.meta.dirname, '../fixtures/hosts');

/** The folder every recorded payload names as the project; a test puts its own project folder in its place. */
export const FIXTURE_PROJECT = '/work/project';

/** A host's answer as a template: placeholders `{reason}`, `{message}` and `{warning}` stand for the texts. */
export type OutputTemplate = HookOutput;

/** One host's `contract.json` (see test/fixtures/hosts/README.md). */
export interface HostContract {
  readonly payloads: Readonly<Record<string, HookEvent>>;
  readonly inputSchemas?: Readonly<Record<string, string>>;
  readonly other: readonly { readonly payload: Record<string, unknown>; readonly eventName: string }[];
  readonly unreadable: readonly { readonly payload: Record<string, unknown>; readonly message: string }[];
  readonly stopSchema: string;
  readonly stopAnswers: Readonly<Record<'block' | 'blockWithWarning' | 'handoff' | 'allow' | 'allowWithWarning', OutputTemplate>>;
  readonly toolAnswers: Readonly<
    Record<
      string,
      {
        readonly phase: 'pre' | 'post';
        readonly schema: string | null;
        readonly why?: string;
        readonly answer: OutputTemplate;
        /** On a host with loop detection of its own: the refusal that hands the run to a person at once, `{message}` for the person. */
        readonly handOff?: OutputTemplate;
      }
    >
  >;
  readonly session: { readonly pre: string; readonly post: string; readonly stop: string };
  readonly blockCaps: readonly { readonly env: Readonly<Record<string, string>>; readonly settings?: unknown; readonly cap: BlockCap | null }[];
  readonly settings: {
    readonly hookCommand: string;
    readonly older: Record<string, unknown>;
    readonly kept: string;
    readonly replaced: readonly string[];
    readonly refused: readonly { readonly value: unknown; readonly message: string }[];
  };
}

/** The host's contract. */
export function contract(host: HookHost): HostContract {
  return JSON.parse(readFileSync(join(FIXTURES, host, 'contract.json'), 'utf8')) as HostContract;
}

/** The payload files in a host's folder (every `.json` that is neither a schema nor the contract). */
export function payloadFiles(host: HookHost): string[] {
  return readdirSync(join(FIXTURES, host))
    .filter((name) => name.endsWith('.json') && !name.endsWith('.schema.json') && name !== 'contract.json')
    .sort();
}

/** A recorded payload as the host sends it, with `project` in place of the folder it was recorded in. */
export function payloadText(host: HookHost, file: string, project: string = FIXTURE_PROJECT): string {
  return readFileSync(join(FIXTURES, host, file), 'utf8').replaceAll(FIXTURE_PROJECT, project);
}

/** A recorded payload, parsed. */
export function payload(host: HookHost, file: string, project?: string): Record<string, unknown> {
  return JSON.parse(payloadText(host, file, project)) as Record<string, unknown>;
}

const validators = new Map<string, ValidateFunction>();

/** Validates `value` against a schema of the host's folder; the problems, empty when it is valid. */
export function schemaProblems(host: HookHost, schema: string, value: unknown): string[] {
  const path = join(FIXTURES, host, schema);
  let validate = validators.get(path);
  if (validate === undefined) {
    // The files copied verbatim from Codex use keywords strict mode refuses (defaults inside allOf); the others are
    // strict but for `required` in a `then`, which names properties defined beside the `if`.
    const ajv = new Ajv({ allErrors: true, strict: !schema.includes('.command.'), strictRequired: false });
    validate = ajv.compile(JSON.parse(readFileSync(path, 'utf8')) as object);
    validators.set(path, validate);
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'invalid'}`);
}

/** What a hook printed, read back: the exit code, stdout parsed as JSON (absent when empty), stderr without its last newline (absent when empty). */
export interface ReadOutput {
  readonly exitCode: number;
  readonly stdout?: unknown;
  readonly stderr?: string;
}

/** Reads a hook run back into the shape of an answer; stdout that is not JSON throws. */
export function readOutput(run: HookRun): ReadOutput {
  return {
    exitCode: run.exitCode,
    ...(run.stdout === '' ? {} : { stdout: JSON.parse(run.stdout) as unknown }),
    ...(run.stderr === '' ? {} : { stderr: run.stderr.replace(/\n$/, '') }),
  };
}

const PLACEHOLDER = /^\{(reason|message|warning)\}$/;

/**
 * Matches an answer against a template: the same keys and values, each
 * placeholder standing for one non-empty text. The texts bound to the
 * placeholders, or `undefined` when the answer does not fit.
 */
export function bind(template: unknown, actual: unknown, bound: Record<string, string> = {}): Record<string, string> | undefined {
  if (typeof template === 'string') {
    const name = PLACEHOLDER.exec(template)?.[1];
    if (name === undefined) return template === actual ? bound : undefined;
    if (typeof actual !== 'string' || actual === '' || (bound[name] !== undefined && bound[name] !== actual)) return undefined;
    return { ...bound, [name]: actual };
  }
  if (typeof template !== 'object' || template === null) return template === actual ? bound : undefined;
  if (typeof actual !== 'object' || actual === null || Array.isArray(template) !== Array.isArray(actual)) return undefined;
  const keys = Object.keys(template);
  const actualKeys = Object.keys(actual);
  if (keys.length !== actualKeys.length || !keys.every((key) => Object.hasOwn(actual, key))) return undefined;
  let result: Record<string, string> | undefined = bound;
  for (const key of keys) {
    result = bind((template as Record<string, unknown>)[key], (actual as Record<string, unknown>)[key], result);
    if (result === undefined) return undefined;
  }
  return result;
}

/** A template with its placeholders filled in. */
export function fill(template: unknown, texts: Readonly<Record<string, string>>): unknown {
  if (typeof template === 'string') {
    const name = PLACEHOLDER.exec(template)?.[1];
    return name === undefined ? template : texts[name];
  }
  if (typeof template !== 'object' || template === null) return template;
  if (Array.isArray(template)) return template.map((item) => fill(item, texts));
  return Object.fromEntries(Object.entries(template).map(([key, value]) => [key, fill(value, texts)]));
}
