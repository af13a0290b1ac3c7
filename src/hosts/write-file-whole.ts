import { rename, unlink, writeFile } from 'node:fs/promises';
import { uniqueToken } from './unique-token.js';

/**
 * Writes `text` to `path` whole or not at all: into a new file beside it, renamed over it, so a reader never sees
 * half a file and a crash leaves the old one (the new file is removed when the write fails).
 */
export async function writeFileWhole(path: string, text: string): Promise<void> {
  const temporary = `${path}.${uniqueToken()}.tmp`;
  try {
    await writeFile(temporary, text, { mode: 0o600 });
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}
