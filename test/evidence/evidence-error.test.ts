import { describe, expect, it } from 'vitest';
import { EvidenceError, isEvidenceError } from '../../src/evidence/evidence-error.js';

describe('EvidenceError', () => {
  it('says where the problem is in its message and fields', () => {
    const error = new EvidenceError('truncated', 'junit', 'the report ends early', { line: 12, column: 4, element: 'testcase' });
    expect(error.message).toBe('line 12:4, <testcase>: the report ends early');
    expect(error).toMatchObject({ name: 'EvidenceError', kind: 'truncated', format: 'junit', line: 12, column: 4, element: 'testcase' });
    expect(error.detail).toBe('the report ends early');
    expect(error.file).toBeUndefined();
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'EvidenceError',
      kind: 'truncated',
      format: 'junit',
      message: 'line 12:4, <testcase>: the report ends early',
      line: 12,
      column: 4,
      element: 'testcase',
    });
  });

  it('adds the file it came from', () => {
    const error = new EvidenceError('shape', 'jest-json', 'expected an array', { path: 'testResults' }).withFile('report.json');
    expect(error.message).toBe('report.json, testResults: expected an array');
    expect(error).toMatchObject({ file: 'report.json', path: 'testResults', kind: 'shape' });
  });

  it('is recognised across copies of the package', () => {
    expect(isEvidenceError(new EvidenceError('empty', 'tap', 'no TAP'))).toBe(true);
    expect(isEvidenceError({ [Symbol.for('stopwise.EvidenceError')]: true })).toBe(true);
    expect(isEvidenceError(new Error('x'))).toBe(false);
    expect(isEvidenceError(null)).toBe(false);
    // The public check is the class's own.
    expect(EvidenceError.isInstance({ [Symbol.for('stopwise.EvidenceError')]: true })).toBe(true);
    expect(EvidenceError.isInstance(new TypeError('x'))).toBe(false);
  });
});
