import { readFile, stat } from 'node:fs/promises';
import { describeFsError } from './describe-fs-error.js';
import { describeJsonSyntaxError } from './json-syntax-error.js';

/** A JSON file read from disk: not there, there but unusable (with why), or its parsed value. */
export type JsonFile =
  | { readonly kind: 'missing' }
  | { readonly kind: 'invalid'; readonly message: string }
  | { readonly kind: 'found'; readonly value: unknown };

/** The largest JSON file read unless the caller says otherwise. */
export const MAX_JSON_FILE_BYTES = 16 * 1024 * 1024;

/**
 * Reads and parses a JSON file, a leading byte-order mark allowed. Never
 * throws: a file that cannot be read, is larger than `maxBytes`, or is not
 * JSON is `invalid` with a message that does not repeat the path (the caller
 * names the file).
 */
export async function readJsonFile(path: string, options: { readonly maxBytes?: number } = {}): Promise<JsonFile> {
  const maxBytes = options.maxBytes ?? MAX_JSON_FILE_BYTES;
  let text: string;
  try {
    const info = await stat(path);
    if (info.isFile() && info.size > maxBytes) return { kind: 'invalid', message: `larger than ${maxBytes} bytes` };
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'invalid', message: `cannot be read (${describeFsError(error)})` };
  }
  const parsed = parseJsonText(text);
  return parsed.ok ? { kind: 'found', value: parsed.value } : { kind: 'invalid', message: parsed.message };
}

/** Parses JSON text, a leading byte-order mark allowed; an error comes back as `not valid JSON at line L, column C: ...`. */
export function parseJsonText(text: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (error) {
    return { ok: false, message: describeJsonSyntaxError(body, error).message };
  }
}
