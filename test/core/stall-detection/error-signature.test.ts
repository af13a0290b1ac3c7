import { describe, expect, it } from 'vitest';
import { endsInInfrastructureError, errorSignature, finalLines, looksFailed } from '../../../src/core/stall-detection/error-signature.js';

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

  it('finds the error under a stack, the fields of a dumped error object and a test runner\'s closing counts', () => {
    const failedAssert = [
      'not ok 1 - adds',
      "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
      '',
      '-1 !== 5',
      '',
      '    at TestContext.<anonymous> (file:///p/test/math.test.js:5:10)',
      '    at Test.runInAsyncScope (node:async_hooks:214:14)',
      '    at Test.run (node:internal/test_runner/test:1047:25)',
      '  {',
      "  generatedMessage: true,",
      "  code: 'ERR_ASSERTION',",
      '  actual: -1,',
      '  expected: 5,',
      "  operator: 'strictEqual'",
      '}',
      'ℹ tests 1',
      'ℹ pass 0',
      'ℹ fail 1',
      'ℹ duration_ms <duration>',
    ].join('\n');
    expect(errorSignature(failedAssert)).toBe('AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:');
    expect(looksFailed(failedAssert)).toBe(true);
    expect(finalLines(failedAssert).some((line) => line.startsWith('at ') || line.startsWith('code:'))).toBe(false);
    // An output of nothing but such lines keeps its last line.
    expect(errorSignature('}\n')).toBe('}');
  });

  it('reads infrastructure errors (timeouts, rate limits, resets, refused connections, socket hang up) from the final lines, not only the error line', () => {
    expect(endsInInfrastructureError('HTTP 429 Too Many Requests')).toBe(true);
    expect(endsInInfrastructureError('EXECUTION TIMED OUT')).toBe(true);
    expect(endsInInfrastructureError('Error: request to registry failed\nsocket hang up')).toBe(true);
    // The error line names no cause; the reset is on the line before it.
    expect(endsInInfrastructureError('npm ERR! code ECONNRESET\nnpm ERR! network request failed')).toBe(true);
    expect(endsInInfrastructureError('AssertionError: 1 != 2')).toBe(false);
  });
});
