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

  it('masks a process id however it is written, and a duration named before its number with = or :', () => {
    expect(normalizeOutput('pid=42 PID: 4242 pgid 7 PGID#9 process 12')).toBe('pid=<pid> PID: <pid> pgid <pid> PGID#<pid> process <pid>');
    expect(normalizeOutput('duration_ms=12.5 duration_ms: 3')).toBe('duration_ms=<duration> duration_ms: <duration>');
    // A number that is not a process id or a duration stays.
    expect(normalizeOutput('Exit Code: 1\nprocessed 12 files')).toBe('Exit Code: 1\nprocessed 12 files');
  });

  it("makes two runs of the same failing test equal when only the process group and the durations changed (Gemini CLI's shell result)", () => {
    const run = (pgid: number, ms: string) =>
      [
        `Output: ✖ add sums two numbers (${ms}ms)`,
        '  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
        '      at TestContext.<anonymous> (file:///p/test/math.test.js:6:10)',
        `ℹ duration_ms ${ms}`,
        'Exit Code: 1',
        `Process Group PGID: ${pgid}`,
      ].join('\n');
    expect(normalizeOutput(run(48213, '4.838891'))).toBe(normalizeOutput(run(48377, '5.1')));
    expect(normalizeOutput(run(48213, '4.8'))).not.toBe(normalizeOutput(run(48213, '4.8').replace('strictly equal', 'deeply equal')));
  });

  it('masks temporary paths of Linux, macOS and Windows, and hex addresses of four digits or more only', () => {
    expect(normalizeOutput('C:\\Users\\dev\\AppData\\Local\\Temp\\jest_1\\x.js /var/folders/xy/abc/T/tmp.1 /private/var/folders/a/b /tmp/pytest-7/a.py')).toBe(
      '<tmp> <tmp> <tmp> <tmp>',
    );
    expect(normalizeOutput('flags 0x1f at 0xdeadbeef')).toBe('flags 0x1f at 0x<addr>');
  });

  it('replaces a shell input counter but keeps the line numbers of errors', () => {
    expect(normalizeOutput('/bin/bash: line 11301: cd: x: No such file or directory')).toBe('/bin/bash: line <n>: cd: x: No such file or directory');
    expect(normalizeOutput('  File "a.py", line 10\nSyntaxError: invalid syntax')).toBe('File "a.py", line 10\nSyntaxError: invalid syntax');
    expect(normalizeOutput('sh: line 5: x: not found\nsrc/a.ts:42:7 - error')).toBe('sh: line <n>: x: not found\nsrc/a.ts:42:7 - error');
  });

  it('collapses blanks and empty lines and trims', () => {
    expect(normalizeOutput('  a  b\t c \n\n\n  d  \r\n')).toBe('a b c\nd');
  });
});
