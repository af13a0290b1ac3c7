import { describe, expect, it } from 'vitest';
import { normalizeOutput } from '../../../src/core/stall-detection/normalize-output.js';

describe('normalizeOutput', () => {
  it('replaces timestamps, durations, pids, hex addresses, uuids and temporary paths', () => {
    expect(normalizeOutput('at 2024-01-01T10:00:00.123Z took 12ms (pid 42) obj 0x7ffde4a0 /tmp/pytest-1/x.py')).toBe(
      'at <time> took <duration> (pid <pid>) obj 0x<addr> <tmp>',
    );
    expect(normalizeOutput('Process 99 done in 3.5 seconds at 10:11:12, id 123e4567-e89b-12d3-a456-426614174000')).toBe(
      'Process <pid> done in <duration> at <time>, id <uuid>',
    );
  });

  it("replaces a process group id (Gemini CLI's shell result) and a duration named before its number (node:test)", () => {
    expect(normalizeOutput('Exit Code: 1\nProcess Group PGID: 48213')).toBe('Exit Code: 1\nProcess Group PGID: <pid>');
    expect(normalizeOutput('ok 1 - adds\n  ---\n  duration_ms: 0.52\n  ...\n# duration_ms 41.2')).toBe('ok 1 - adds\n---\nduration_ms: <duration>\n...\n# duration_ms <duration>');
  });

  it('replaces a shell input counter but keeps the line numbers of errors', () => {
    expect(normalizeOutput('/bin/bash: line 11301: cd: x: No such file or directory')).toBe('/bin/bash: line <n>: cd: x: No such file or directory');
    expect(normalizeOutput('  File "a.py", line 10\nSyntaxError: invalid syntax')).toBe('File "a.py", line 10\nSyntaxError: invalid syntax');
  });

  it('collapses blanks and empty lines and trims', () => {
    expect(normalizeOutput('  a  b\t c \n\n\n  d  \r\n')).toBe('a b c\nd');
  });
});
