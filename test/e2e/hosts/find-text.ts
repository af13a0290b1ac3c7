/** Where a text stands in a request body: the JSON path of the string field, the text before it in that field, and after. */
export interface TextPlacement {
  readonly path: string;
  /** How many characters stand before the text in its field. */
  readonly offset: number;
  readonly before: string;
  readonly after: string;
  /** The form found: as given, or HTML-escaped (Codex escapes `<`, `>` and `&` in a hook's reason). */
  readonly form: 'raw' | 'html-escaped';
}

const htmlEscaped = (text: string): string => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/**
 * Every string field of `value` (at any depth; a string that holds JSON is
 * searched after a parse too) that contains `needle`, as given or
 * HTML-escaped, with its place.
 */
export function findText(value: unknown, needle: string): TextPlacement[] {
  const forms = [...new Set([needle, htmlEscaped(needle)])];
  const found: TextPlacement[] = [];
  const walk = (node: unknown, path: string): void => {
    if (typeof node === 'string') {
      let matched = false;
      for (const form of forms) {
        const at = node.indexOf(form);
        if (at < 0) continue;
        matched = true;
        found.push({ path, offset: at, before: node.slice(0, at), after: node.slice(at + form.length), form: form === needle ? 'raw' : 'html-escaped' });
        break;
      }
      const trimmed = node.trim();
      if (!matched && (trimmed.startsWith('{') || trimmed.startsWith('['))) {
        try {
          walk(JSON.parse(trimmed), `${path}<json>`);
        } catch {
          // not JSON after all
        }
      }
    } else if (Array.isArray(node)) node.forEach((item, index) => walk(item, `${path}[${index}]`));
    else if (typeof node === 'object' && node !== null) for (const [key, item] of Object.entries(node)) walk(item, `${path}.${key}`);
  };
  walk(value, '$');
  return found;
}
