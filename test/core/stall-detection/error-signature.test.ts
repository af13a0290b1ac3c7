import { describe, expect, it } from 'vitest';
import { endsInInfrastructureError, errorSignature, errorSignatureOfLines, finalLines, looksFailed } from '../../../src/core/stall-detection/error-signature.js';
import { normalizeOutput } from '../../../src/core/stall-detection/normalize-output.js';

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

  it("names the error of a failed node:assert in Gemini CLI's shell result, the same for every run of it", () => {
    const run = (pgid: number) =>
      normalizeOutput(
        [
          'Output: ✖ add sums two numbers (4.8ms)',
          '  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
          '  ',
          '  -1 !== 5',
          ...Array.from({ length: 8 }, (_, i) => `      at frame${i} (node:internal/test_runner/test:${700 + i}:25)`),
          '  {',
          "    code: 'ERR_ASSERTION',",
          '    expected: [ 5 ],',
          '    cause: undefined,',
          '    errno: -2',
          '  }',
          'Exit Code: 1',
          `Process Group PGID: ${pgid}`,
        ].join('\n'),
      );
    expect(errorSignature(run(101))).toBe('AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:');
    expect(errorSignature(run(101))).toBe(errorSignature(run(202)));
    // The stack frames and the fields of the dumped error are not among the lines read.
    expect(finalLines(run(101))).toEqual([
      'Output: ✖ add sums two numbers (<duration>)',
      'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      '-1 !== 5',
      'Exit Code: 1',
      'Process Group PGID: <pid>',
    ]);
  });

  it("skips a TAP runner's closing counts and a JavaScript stack: the failing test or the thrown error is the signature", () => {
    expect(errorSignature('not ok 1 - adds\n# tests 1\n# pass 0\n# fail 1\n# duration_ms 12')).toBe('not ok 1 - adds');
    expect(errorSignature('Error: boom\n    at f (/p/a.js:3:7)\n    at g (/p/b.js:1:1)')).toBe('Error: boom');
    // Two errors told apart only by the stack are the same error.
    expect(errorSignature('Error: boom\n    at f (/p/a.js:3:7)')).toBe(errorSignature('Error: boom\n    at h (/p/c.js:9:1)'));
  });

  it('keeps the location printed just before the error, and reads the lines it is given', () => {
    expect(errorSignature('src/a.ts:12:5\nTypeError: x is not a function')).toBe('src/a.ts:12:5\nTypeError: x is not a function');
    expect(errorSignatureOfLines(['compiling', 'fatal: not a git repository', 'done'])).toBe('fatal: not a git repository');
    expect(errorSignatureOfLines([])).toBe('');
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
