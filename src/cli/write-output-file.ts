import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/** Writes `text` to `path` (resolved against `cwd`), creating its folder; a failure is returned as a message, never thrown. */
export async function writeOutputFile(path: string, cwd: string, text: string): Promise<{ ok: true } | { ok: false; message: string }> {
  try {
    const absolute = resolve(cwd, path);
    await mkdir(dirname(absolute), { recursive: true });
    await writeFile(absolute, text);
    return { ok: true };
  } catch (error) {
    return { ok: false, message: `could not write (${(error as Error).message})` };
  }
}
