// The expected list of packed files: one path or pattern per line (`*` matches within one folder), `#` comments.

/** The lines of an expected-files list, without comments and blank lines. */
export function readExpectedFiles(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** What is wrong with `packed` against `expected`: files no line allows, and exact lines that were not packed. */
export function checkPackedFiles(packed: readonly string[], expected: readonly string[]): string[] {
  const patterns = expected.map((line) => ({ line, pattern: new RegExp(`^${line.split('*').map(escape).join('[^/]*')}$`) }));
  const problems: string[] = [];
  for (const file of packed) {
    if (!patterns.some(({ pattern }) => pattern.test(file))) problems.push(`packed but not expected: ${file}`);
  }
  for (const { line } of patterns) {
    if (!line.includes('*') && !packed.includes(line)) problems.push(`expected but not packed: ${line}`);
    if (line.includes('*') && !packed.some((file) => patterns.find((entry) => entry.line === line)?.pattern.test(file))) {
      problems.push(`expected but not packed: nothing matches ${line}`);
    }
  }
  return problems;
}

function escape(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}
