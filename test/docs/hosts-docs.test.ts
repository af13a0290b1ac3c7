import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookCommand, launcherScript } from '../../src/hosts/hook-command.js';
import { HOOK_HOSTS, HOSTS } from '../../src/hosts/host.js';

const page = (path: string): string => readFileSync(resolve(import.meta.dirname, '../..', path), 'utf8');

describe('the hosts pages', () => {
  it('show the launcher init writes, and the command of each host as init writes it', () => {
    const hosts = page('docs/hosts.md');
    expect(hosts).toContain(`\`\`\`sh\n${launcherScript(HOSTS['claude-code'])}\`\`\``);
    for (const name of HOOK_HOSTS) {
      // In the table, with its pipes escaped for markdown.
      expect(hosts, name).toContain(`| \`${name}\` | \`${hookCommand(HOSTS[name], 'linux').replaceAll('|', '\\|')}\``);
      // In the host's own page, in the settings JSON init writes.
      expect(page(`docs/hosts/${name}.md`), name).toContain(JSON.stringify(hookCommand(HOSTS[name], 'linux')));
    }
  });
});
