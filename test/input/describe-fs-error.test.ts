import { describe, expect, it } from 'vitest';
import { describeFsError } from '../../src/input/describe-fs-error.js';

const fsError = (code: string) => Object.assign(new Error(`${code}: raw message`), { code });

describe('describeFsError', () => {
  it('words the common codes for a person and keeps the message of the rest', () => {
    expect(describeFsError(fsError('ENOENT'))).toBe('no such file or folder');
    expect(describeFsError(fsError('EACCES'))).toBe('permission denied');
    expect(describeFsError(fsError('EPERM'))).toBe('permission denied');
    expect(describeFsError(fsError('EISDIR'))).toBe('is a folder, expected a file');
    expect(describeFsError(fsError('EIO'))).toBe('EIO: raw message');
    expect(describeFsError('plain')).toBe('plain');
  });
});
