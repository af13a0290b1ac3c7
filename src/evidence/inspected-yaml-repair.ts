const INSPECTED = /^(\s*[^\s'"`#\-][^'"`]*?: )(['"`])(.*)\2(?:\.\.\. \d+ more characters?)?$/s;
const CUT = /\.\.\. \d+ more characters?$/;
const BLOCK_SCALAR = /^(\s*)[^\s'"`#][^'"`]*?: *[|>][+-]?\d*\s*$/;
const TAP_LINE = /^(?:(?:not )?ok\b|1\.\.\d|# Subtest:|Bail out!|TAP version )/;
const ESCAPE = /\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]{1,6}\}|u[0-9a-fA-F]{4}|[\s\S])/g;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0' };

/**
 * Makes YAML of the diagnostics lines that node:test writes with
 * `util.inspect`: a one-line string longer than 10,000 characters ends in
 * `'…'... 90000 more characters`, and one that holds both quote marks is
 * quoted with backticks. Neither is YAML, and a YAML block that does not
 * parse loses every diagnostic in it, the failure message first. Such a line
 * becomes a double-quoted YAML scalar with the same text (a cut one ends in
 * `…`); every other line, and every line of a block scalar, is kept as it is.
 */
export class InspectedYamlRepair {
  #blockIndent: number | undefined;
  #scalarIndent: number | undefined;

  /** The line to give the TAP parser instead of `line` (without its line break). */
  line(line: string): string {
    const body = line.endsWith('\r') ? line.slice(0, -1) : line;
    const trimmed = body.trim();
    if (this.#blockIndent !== undefined && trimmed !== '' && (indentOf(body) < this.#blockIndent || TAP_LINE.test(trimmed))) {
      this.#blockIndent = undefined;
      this.#scalarIndent = undefined;
    }
    if (this.#blockIndent === undefined) {
      if (trimmed === '---') this.#blockIndent = indentOf(body);
      return line;
    }
    if (trimmed === '...') {
      this.#blockIndent = undefined;
      this.#scalarIndent = undefined;
      return line;
    }
    if (this.#scalarIndent !== undefined) {
      if (trimmed === '' || indentOf(body) > this.#scalarIndent) return line;
      this.#scalarIndent = undefined;
    }
    const block = BLOCK_SCALAR.exec(body);
    if (block !== null) {
      this.#scalarIndent = block[1]?.length ?? 0;
      return line;
    }
    const repaired = repairInspected(body);
    return repaired === undefined ? line : repaired;
  }
}

function repairInspected(line: string): string | undefined {
  const match = INSPECTED.exec(line);
  if (match === null) return undefined;
  const [, key = '', quote = '', content = ''] = match;
  const cut = CUT.test(line);
  if (!cut && quote !== '`') return undefined;
  // JSON.stringify leaves U+2028 and U+2029 as they are, and a YAML 1.1 parser reads them as line breaks
  const scalar = JSON.stringify(`${unescapeInspected(content)}${cut ? '…' : ''}`).replace(/[\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16)}`);
  return `${key}${scalar}`;
}

function unescapeInspected(content: string): string {
  return content.replace(ESCAPE, (whole, escape: string) => {
    const simple = SIMPLE_ESCAPES[escape];
    if (simple !== undefined) return simple;
    if (escape.startsWith('x')) return String.fromCharCode(Number.parseInt(escape.slice(1), 16));
    if (escape.startsWith('u{')) {
      const code = Number.parseInt(escape.slice(2, -1), 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    if (escape.startsWith('u') && escape.length === 5) return String.fromCharCode(Number.parseInt(escape.slice(1), 16));
    return escape;
  });
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}
