import { describe, expect, it } from 'vitest';
import { errorSignature, isInfrastructureError, looksFailed } from '../../../src/core/stall-detection/error-signature.js';

describe('error signatures', () => {
  it('takes the last line that reports an error', () => {
    expect(errorSignature('Traceback (most recent call last):\n  File "a.py", line 3\nValueError: bad value\nexit')).toBe('File "a.py", line 3\nValueError: bad value');
    expect(errorSignature('nothing\nlast')).toBe('last');
  });

  it('reads a failure from lines that report one, not from code that names an exception type', () => {
    expect(looksFailed('/bin/bash: line 3: javac: command not found')).toBe(true);
    expect(looksFailed('Error: File name X.java not found.')).toBe(true);
    expect(looksFailed('12:    } catch (IOException e) {\n13:        throw new IllegalStateException(e);')).toBe(false);
    expect(looksFailed('File updated.')).toBe(false);
  });

  it('knows infrastructure errors', () => {
    expect(isInfrastructureError('HTTP 429 Too Many Requests')).toBe(true);
    expect(isInfrastructureError('EXECUTION TIMED OUT')).toBe(true);
    expect(isInfrastructureError('AssertionError: 1 != 2')).toBe(false);
  });
});
