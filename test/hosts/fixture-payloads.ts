import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A sample hook payload from `test/fixtures/hosts/<host>/` (see the NOTES.md there). */
export function payload(host: 'copilot' | 'gemini', name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/hosts', host, `${name}.json`), 'utf8')) as Record<string, unknown>;
}
