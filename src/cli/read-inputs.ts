import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describeFsError } from '../input/describe-fs-error.js';

/** A file that could not be read, with a message fit for a person. */
export interface ReadFailure {
  readonly path: string;
  readonly message: string;
}

/**
 * Expands the command-line paths: a folder stands for the files in it that end
 * with one of `extensions`, sorted by name. Paths that do not exist are
 * reported, not thrown.
 */
export async function expandInputPaths(
  paths: readonly string[],
  cwd: string,
  extensions: readonly string[],
): Promise<{ files: string[]; failures: ReadFailure[] }> {
  const files: string[] = [];
  const failures: ReadFailure[] = [];
  for (const path of paths) {
    const absolute = resolve(cwd, path);
    try {
      const info = await stat(absolute);
      if (info.isDirectory()) {
        const names = (await readdir(absolute)).filter((name) => extensions.some((ext) => name.endsWith(ext))).sort();
        if (names.length === 0) failures.push({ path, message: `no ${extensions.join(' or ')} files in this folder` });
        files.push(...names.map((name) => join(path, name)));
      } else {
        files.push(path);
      }
    } catch (error) {
      failures.push({ path, message: describeFsError(error) });
    }
  }
  return { files, failures };
}

/** Reads a UTF-8 text file; a failure is returned as a message, never thrown. */
export async function readTextFile(path: string, cwd: string): Promise<{ ok: true; text: string } | { ok: false; message: string }> {
  try {
    return { ok: true, text: await readFile(resolve(cwd, path), 'utf8') };
  } catch (error) {
    return { ok: false, message: describeFsError(error) };
  }
}
