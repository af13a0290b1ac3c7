import { afterEach, describe, expect, it } from 'vitest';
import { checkFilesExist } from '../../src/evidence/check-files-exist.js';
import { makeProject } from './sample-projects.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('checkFilesExist', () => {
  it('passes when every path exists and names the missing ones otherwise', async () => {
    const made = makeProject({ 'dist/index.js': '', 'README.md': '' });
    cleanups.push(made.remove);
    expect(await checkFilesExist(['dist/index.js', 'README.md', 'dist'], { cwd: made.dir })).toEqual({ name: 'files-exist', ok: true, detail: 'all 3 exist' });
    expect(await checkFilesExist(['dist/index.js', 'CHANGELOG.md', 'dist/index.d.ts'], { cwd: made.dir, name: 'build-output' })).toEqual({
      name: 'build-output',
      ok: false,
      detail: 'missing: CHANGELOG.md, dist/index.d.ts',
    });
  });

  it('rejects misuse', async () => {
    await expect(checkFilesExist('README.md' as unknown as string[], { cwd: '.' })).rejects.toThrow(TypeError);
  });
});
