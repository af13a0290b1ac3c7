import { resolve } from 'node:path';
import { isStopPolicyDocumentShape, parseStopPolicy, stopPolicyProblems } from '../core/policy/parse-stop-policy.js';
import { policyTaskTypes } from '../core/policy/policy-task-types.js';
import type { StopPolicyDocument } from '../core/policy/stop-policy-document.js';
import { formatSchemaProblems, schemaProblems } from '../core/schema-issues.js';
import { createStopPolicy, stopPolicyNumbersSchema, type StopPolicy } from '../core/stop-policy.js';
import { readJsonFile } from './read-json-file.js';

/** A policy file read: a stop policy document, or the numbers of the presets; every message starts with the path. */
export type LoadedPolicyFile =
  | { readonly ok: true; readonly document: StopPolicyDocument }
  | { readonly ok: true; readonly numbers: StopPolicy }
  | { readonly ok: false; readonly message: string };

/**
 * Reads a policy file: a stop policy document (an object with `rules`, as
 * `stopwise calibrate --policy-out` writes), or an object with some of the
 * presets' numbers (`doneThreshold`, `midBandLow`, `maxSteps`, `stallRounds`;
 * the rest from the defaults). With `taskType`, a document must have rules for
 * it. Every problem is reported at once. The hook's configuration and
 * `stopwise replay --policy` read policies here.
 */
export async function loadPolicyFile(path: string, cwd: string, options: { readonly taskType?: string } = {}): Promise<LoadedPolicyFile> {
  const read = await readJsonFile(resolve(cwd, path));
  if (read.kind === 'missing') return { ok: false, message: `${path}: no such file or folder` };
  if (read.kind === 'invalid') return { ok: false, message: `${path}: ${read.message}` };
  const value = read.value;
  const lines = (text: string): string => text.split('\n').map((line) => `${path}: ${line}`).join('\n');
  if (isStopPolicyDocumentShape(value)) {
    const problems = stopPolicyProblems(value);
    if (problems.length > 0) return { ok: false, message: lines(formatSchemaProblems(problems)) };
    const document = parseStopPolicy(value);
    const known = policyTaskTypes(document);
    if (options.taskType !== undefined && !known.includes(options.taskType)) {
      return { ok: false, message: `${path}: no rule reads task type "${options.taskType}" (a { "taskType": ... } condition); it has ${known.length === 0 ? 'none' : known.join(', ')}` };
    }
    return { ok: true, document };
  }
  const numbers = stopPolicyNumbersSchema.safeParse(value, { reportInput: true });
  if (!numbers.success) {
    const hint = typeof value === 'object' && value !== null && !Array.isArray(value) ? '' : ' (a policy file holds a stop policy document, or an object with doneThreshold, midBandLow, maxSteps, stallRounds)';
    return { ok: false, message: lines(`${formatSchemaProblems(schemaProblems(stopPolicyNumbersSchema, numbers.error.issues, value))}${hint}`) };
  }
  return { ok: true, numbers: createStopPolicy(numbers.data as Partial<StopPolicy>) };
}
