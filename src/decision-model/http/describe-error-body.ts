import { redactSecrets } from './redact-secrets.js';

const MAX_DETAIL_CHARS = 300;

/**
 * A short, single-line account of an error body for a message: the `detail`,
 * `error.message` or `message` of a JSON body, "an HTML page" for HTML, or the
 * start of the text; secrets redacted, at most 300 characters.
 */
export function describeErrorBody(text: string, secrets: readonly string[]): string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  if (/^<(!doctype|html|head|body)/i.test(trimmed)) return 'the server sent an HTML page';
  let detail = trimmed;
  try {
    detail = pickDetail(JSON.parse(trimmed) as unknown) ?? trimmed;
  } catch {
    // not JSON: the text itself
  }
  const line = redactSecrets(detail, secrets).replace(/\s+/g, ' ');
  return line.length > MAX_DETAIL_CHARS ? `${line.slice(0, MAX_DETAIL_CHARS - 3)}...` : line;
}

function pickDetail(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { detail, error, message } = body as { detail?: unknown; error?: unknown; message?: unknown };
  if (detail !== undefined) return typeof detail === 'string' ? detail : JSON.stringify(detail);
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
    return (error as { message: string }).message;
  }
  if (typeof error === 'string') return error;
  if (typeof message === 'string') return message;
  return undefined;
}
