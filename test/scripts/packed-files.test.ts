import { describe, expect, it } from 'vitest';
import { checkPackedFiles, readExpectedFiles } from '../../scripts/packed-files.js';

describe('checkPackedFiles', () => {
  const expected = readExpectedFiles('# shipped\nLICENSE\n\ndist/*.js\nschemas/a.json\n');

  it('accepts a list that matches line for line', () => {
    expect(checkPackedFiles(['LICENSE', 'dist/index.js', 'dist/chunk-X.js', 'schemas/a.json'], expected)).toEqual([]);
  });

  it('names a packed file no line allows, and a star that matches only within one folder', () => {
    expect(checkPackedFiles(['LICENSE', 'dist/index.js', 'dist/bin/cli.js', 'schemas/a.json', 'src/index.ts'], expected)).toEqual([
      'packed but not expected: dist/bin/cli.js',
      'packed but not expected: src/index.ts',
    ]);
  });

  it('names an exact line that was not packed and a pattern nothing matches', () => {
    expect(checkPackedFiles(['LICENSE'], expected)).toEqual(['expected but not packed: nothing matches dist/*.js', 'expected but not packed: schemas/a.json']);
  });
});
