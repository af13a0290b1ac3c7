// Volatile details that change between two runs of the same command without
// meaning anything about the work, matched in one pass. Line numbers in errors
// are kept: they tell a new error from the same one.
const VOLATILE = new RegExp(
  [
    // 1: ISO 8601 and log-style timestamps; 2: clock times.
    /(\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)/.source,
    /(\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b)/.source,
    // 3: UUIDs; 4: hex addresses.
    /(\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b)/.source,
    /(\b0[xX][0-9a-fA-F]{4,}\b)/.source,
    // 5: durations ("0.52s", "12 ms", "3.1 seconds").
    /(\b\d+(?:\.\d+)?\s?(?:ns|µs|us|ms|s|sec|secs|seconds?|m|mins?|minutes?|h|hours?)\b)/.source,
    // 6, 7: process and process-group ids ("pid 4242", "PID: 4242", "Process Group PGID: 4242").
    /\b(pid|PID|pgid|PGID|process|Process)([ :=#]+)\d+\b/.source,
    // 8: temporary paths.
    /((?:\/private)?\/var\/folders\/[^\s'"`:]+|\/(?:tmp|temp)\/[^\s'"`:]+|[A-Za-z]:\\Users\\[^\\\s]+\\AppData\\Local\\Temp\\[^\s'"`:]+)/
      .source,
    // 9: a shell's own input counter ("bash: line 11301: cd: ..."), which grows with every command the shell runs.
    /(\b(?:ba|z|da|k)?sh: line )\d+:/.source,
    // 10: a duration named before its number, as node:test writes it ("duration_ms: 0.52", "# duration_ms 41.2").
    /(\bduration_?ms\b[:=]?\s*)\d+(?:\.\d+)?/.source,
  ].join('|'),
  'g',
);

function replaceVolatile(match: string, ...groups: (string | undefined)[]): string {
  if (groups[0] !== undefined || groups[1] !== undefined) return '<time>';
  if (groups[2] !== undefined) return '<uuid>';
  if (groups[3] !== undefined) return '0x<addr>';
  if (groups[4] !== undefined) return '<duration>';
  if (groups[5] !== undefined) return `${groups[5]}${groups[6] ?? ' '}<pid>`;
  if (groups[7] !== undefined) return '<tmp>';
  if (groups[8] !== undefined) return `${groups[8]}<n>:`;
  if (groups[9] !== undefined) return `${groups[9]}<duration>`;
  return match;
}

// Whitespace: runs of blanks become one space, spaces around line breaks and empty lines go.
const WHITESPACE = /[ \t]*(?:\r?\n[ \t]*)+|[ \t]{2,}|\t/g;

/**
 * The output with timestamps, durations, PIDs, hex addresses, UUIDs,
 * temporary paths, shell input counters and extra whitespace replaced by
 * placeholders, so that two runs of the same command compare equal when
 * nothing but those changed. Line numbers of errors are kept.
 */
export function normalizeOutput(output: string): string {
  return output
    .replace(VOLATILE, replaceVolatile)
    .replace(WHITESPACE, (run) => (run.includes('\n') ? '\n' : ' '))
    .trim();
}
