// A line that reports an error, not one that mentions it: "Error: ...", "fatal: ...",
// "ValueError: ...", "java.lang.NullPointerException" at the end of a line,
// "command not found", "No such file or directory". Code listings that merely
// name an exception type ("catch (IOException e)") do not match.
const ERROR_LINE =
  /(?:^|[\s:[(])(?:error|fatal|failed|failure|panic)(?:\[[^\]]*\])?:|\b\w*(?:Error|Exception|Failure)(?: \[[^\]]*\])?(?::|$)|^traceback \(most recent call last\)|command not found|no such file or directory|permission denied|\bnot found\b|\bcannot (?:find|open|access|read|write|resolve|load)\b|\bunable to\b|\bsegmentation fault\b/im;

const INFRASTRUCTURE =
  /\b(?:timed? ?out|timeout|rate[ -]?limit(?:ed)?|too many requests|429|502|503|504|service unavailable|temporarily unavailable|overloaded|ECONNRESET|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN|connection (?:reset|refused)|socket hang up)\b/i;

// A source location: "line 42", "a.py:42", "Main.java:[12,5]".
const LOCATION = /\bline \d+|\w:\d+\b|:\[\d+,\d+\]/;
const LOCATION_LOOKBACK = 3;

/** How many of the last lines of an output a failure is looked for in, not counting the lines that say nothing. */
const TAIL_LINES = 8;
/** How far back the tail is looked for at most, so that a long output of nothing but noise stays cheap. */
const MAX_SCANNED_LINES = 64;

// Lines that come after an error without naming it: stack frames ("at f (a.js:3:7)"), the fields of a dumped error
// object ("code: 'ERR_ASSERTION',", "actual: -1,", "}"), and a test runner's closing counts ("ℹ tests 1", "# fail 1").
const NOISE =
  /^(?:at .+|[{}[\]()]+[,;]?|\w+: (?:'[^']*'|"[^"]*"|-?\d+(?:\.\d+)?|true|false|null|undefined|\[[^\]]*\]|\{[^}]*\})?,?|(?:ℹ|#) (?:tests|suites|pass|fail|cancelled|skipped|todo|duration_ms)\b.*)$/;

/**
 * The line of a (normalised) failed output that names its error: the last of
 * its final lines that reads like an error, with the source location printed
 * just before it if any, else its last line. Two failures with the same
 * signature are the same error, whatever ran before it.
 */
export function errorSignature(normalizedOutput: string): string {
  return errorSignatureOfLines(tailLines(normalizedOutput));
}

/** {@link errorSignature} of the final lines {@link finalLines} gave. */
export function errorSignatureOfLines(lines: readonly string[]): string {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] as string;
    if (!ERROR_LINE.test(line)) continue;
    if (LOCATION.test(line)) return line;
    // The location printed just before the error ("File "a.py", line 3") tells one error from another.
    for (let j = i - 1; j >= Math.max(0, i - LOCATION_LOOKBACK); j--) {
      const before = lines[j] as string;
      if (LOCATION.test(before)) return `${before}\n${line}`;
    }
    return line;
  }
  return lines[lines.length - 1] ?? '';
}

/** True when one of the final lines of a (normalised) output reads like an error. */
export function looksFailed(normalizedOutput: string): boolean {
  return looksFailedLines(tailLines(normalizedOutput));
}

/** {@link looksFailed} of the final lines {@link finalLines} gave. */
export function looksFailedLines(lines: readonly string[]): boolean {
  return lines.some((line) => ERROR_LINE.test(line));
}

/** True when one of the final lines of a (normalised) output names a timeout, a rate limit, an unavailable service, or a reset or refused connection. */
export function endsInInfrastructureError(normalizedOutput: string): boolean {
  return infrastructureInLines(tailLines(normalizedOutput));
}

/** {@link endsInInfrastructureError} of the final lines {@link finalLines} gave. */
export function infrastructureInLines(lines: readonly string[]): boolean {
  return lines.some((line) => INFRASTRUCTURE.test(line));
}

/**
 * The final lines of a text where a failure is looked for: the last non-empty lines, not counting stack frames,
 * the fields of a dumped error object or a test runner's closing counts (read once per step, then shared).
 */
export function finalLines(text: string): string[] {
  return tailLines(text);
}

function tailLines(text: string): string[] {
  const lines: string[] = [];
  let end = text.length;
  let scanned = 0;
  while (end > 0 && lines.length < TAIL_LINES && scanned < MAX_SCANNED_LINES) {
    const start = text.lastIndexOf('\n', end - 1);
    const line = text.slice(start + 1, end).trim();
    if (line !== '' && !NOISE.test(line)) lines.unshift(line);
    scanned += 1;
    end = start < 0 ? 0 : start;
  }
  // An output of nothing but noise keeps its last line, so that its signature is still itself.
  if (lines.length === 0) {
    const last = text.trimEnd().split('\n').pop()?.trim();
    if (last !== undefined && last !== '') lines.push(last);
  }
  return lines;
}
