/**
 * Words a `JSON.parse` error on `text` with the line and column it points at
 * (1-based), instead of the character offset the engine gives (whose wording
 * also differs across Node versions): `not valid JSON at line 4, column 16:
 * expected double-quoted property name`.
 */
export function describeJsonSyntaxError(
  text: string,
  error: unknown,
): { readonly message: string; readonly offset?: number; readonly line?: number; readonly column?: number } {
  const detail = error instanceof Error ? error.message : String(error);
  const at = /position (\d+)/.exec(detail)?.[1];
  const offset = at !== undefined ? Number(at) : /end of JSON input/.test(detail) ? text.length : undefined;
  // The engine's own wording, without where it points (said below) and the text it quotes.
  const what = detail
    .replace(/, ".*" is not valid JSON$/s, '')
    .replace(/(?: in JSON)? at position \d+(?: \(line \d+ column \d+\))?/, '')
    .replace(/^\w/, (first) => first.toLowerCase());
  if (offset === undefined) return { message: `not valid JSON (${what})` };
  const { line, column } = lineAndColumn(text, offset);
  return { message: `not valid JSON at line ${line}, column ${column}: ${what}`, offset, line, column };
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) {
    line += 1;
    lineStart = index + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
