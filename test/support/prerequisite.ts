// What the server-finding modules (postgres.ts, chromium.ts) share: looking a program up on PATH, the answer of a
// search (where the server is, or a one-line reason it is missing), and what a test file does with a missing server.
// Outside CI the tests that need it are skipped, and the reason is printed once per file as one line on standard
// error (the default reporter does not list skipped tests); with CI=true they run and fail with that reason.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join, relative } from 'node:path';

/** The answer of a search for a server: what was found and how, or why nothing was (with how to install it). */
export type Found<T> = { readonly ok: true; readonly value: T; readonly via: string } | { readonly ok: false; readonly missing: string };

const ROOT = join(import.meta.dirname, '../..');

/** True for a regular file (or a link to one) that this process may execute. */
export function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `name` in the folders of `env.PATH`, or undefined. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const folder of (env.PATH ?? '').split(delimiter)) {
    if (folder === '') continue;
    const candidate = join(folder, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

const printed = new Set<string>();

/**
 * Whether the tests of `testFile` that need the server are to be skipped: true when it is missing and `env.CI` is
 * not "true", after printing `skipped in <file>: <reason>` on standard error (once per file and reason). In CI a
 * missing server is not skipped: the tests run and fail with the reason (see {@link required}).
 */
export function skipWithout(found: Found<unknown>, testFile: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (found.ok || env.CI === 'true') return false;
  const line = `skipped in ${relative(ROOT, testFile)}: ${found.missing}\n`;
  if (!printed.has(line)) {
    printed.add(line);
    process.stderr.write(line);
  }
  return true;
}

/** What was found; throws the reason it is missing, so that a test that needs the server fails with it. */
export function required<T>(found: Found<T>): T {
  if (!found.ok) throw new Error(found.missing);
  return found.value;
}
