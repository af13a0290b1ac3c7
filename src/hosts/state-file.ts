import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { parseJsonText } from '../input/read-json-file.js';
import { uniqueToken } from './unique-token.js';

/**
 * Reads a hook's state file: a missing file gives `initial()` (a new
 * session), and a file that `parse` does not take as state (corrupt, cut short
 * by a crash, another program's) gives `initial()` too, with `invalid` as the
 * warning. Any other read error is thrown.
 */
export async function readStateFile<S>(
  path: string,
  parse: (value: unknown) => S | undefined,
  initial: () => S,
  invalid: string,
): Promise<{ state: S; warning?: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: initial() };
    throw error;
  }
  const parsed = parseJsonText(text);
  const state = parsed.ok ? parse(parsed.value) : undefined;
  return state === undefined ? { state: initial(), warning: invalid } : { state };
}

/** Writes a hook's state file atomically: a temporary file in the same folder (owner-only), then a rename over the old one. */
export async function writeStateFile(path: string, text: string): Promise<void> {
  const temporary = `${path}.${uniqueToken()}.tmp`;
  try {
    await writeFile(temporary, text, { mode: 0o600 });
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}
