// Volatile details that change between two runs of the same command without
// meaning anything about the work. Line numbers in errors are kept: they tell a
// new error from the same one.
const RULES: readonly (readonly [RegExp, string])[] = [
  // ISO 8601 and log-style timestamps, then clock times.
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g, '<time>'],
  [/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, '<time>'],
  // UUIDs before hex addresses.
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b0x[0-9a-f]{4,}\b/gi, '0x<addr>'],
  // Durations: "0.52s", "12 ms", "3.1 seconds", "in 2m".
  [/\b\d+(?:\.\d+)?\s?(?:ns|µs|us|ms|s|sec|secs|seconds?|m|mins?|minutes?|h|hours?)\b/g, '<duration>'],
  // Process ids.
  [/\b(pid|PID|process|Process)([ :=#]+)\d+\b/g, '$1$2<pid>'],
  // Temporary paths.
  [/(?:\/private)?\/var\/folders\/[^\s'"`:]+|\/(?:tmp|temp)\/[^\s'"`:]+|[A-Za-z]:\\Users\\[^\\\s]+\\AppData\\Local\\Temp\\[^\s'"`:]+/g, '<tmp>'],
  // A shell's own input counter ("bash: line 11301: cd: ..."), which grows with every command of a session.
  [/\b((?:ba|z|da|k)?sh: line )\d+:/g, '$1<n>:'],
  // Whitespace: trailing spaces, runs of blanks, runs of empty lines.
  [/[ \t]+/g, ' '],
  [/ ?\r?\n ?/g, '\n'],
  [/\n{2,}/g, '\n'],
];

/**
 * The output with timestamps, durations, PIDs, hex addresses, UUIDs,
 * temporary paths, shell input counters and extra whitespace replaced by
 * placeholders, so that two runs of the same command compare equal when
 * nothing but those changed. Line numbers of errors are kept.
 */
export function normalizeOutput(output: string): string {
  let text = output;
  for (const [pattern, replacement] of RULES) text = text.replace(pattern, replacement);
  return text.trim();
}
