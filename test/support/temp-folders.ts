// Temporary folders for one test file: each folder made is removed after each test, also when the test fails.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/** Registers the cleanup in the calling file and returns `tempFolder(prefix)`, which makes a folder in the temp folder. */
export function tempFolders(): (prefix: string) => string {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });
  return (prefix) => {
    const folder = mkdtempSync(join(tmpdir(), prefix));
    folders.push(folder);
    return folder;
  };
}
