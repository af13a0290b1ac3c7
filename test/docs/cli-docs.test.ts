import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPage } from '../../scripts/cli-docs.js';

describe('docs/cli.md', () => {
  it('is the help of the built CLI, command by command (regenerate with tsx scripts/cli-docs.ts --write)', () => {
    const page = readFileSync(resolve(import.meta.dirname, '../../docs/cli.md'), 'utf8');
    expect(page).toBe(cliPage());
    expect(page).toContain('## `stopwise hook`');
  }, 60_000);
});
