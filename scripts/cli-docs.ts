// Writes docs/cli.md from the built CLI's own help: `stopwise --help`, then `stopwise <command> --help` for
// each command it lists. test/docs/cli-docs.test.ts fails when the page and the CLI differ.
//
//   tsx scripts/cli-docs.ts           prints the page
//   tsx scripts/cli-docs.ts --write   writes docs/cli.md
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

function help(args: readonly string[]): string {
  const result = spawnSync(process.execPath, [resolve(root, 'dist/bin/stopwise.js'), ...args, '--help'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  if (result.status !== 0) throw new Error(`stopwise ${[...args, '--help'].join(' ')} exited with ${String(result.status)}: ${result.stderr}`);
  return result.stdout.trimEnd();
}

/** The CLI reference page, built from the help of every command. */
export function cliPage(): string {
  const top = help([]);
  const commands = [...top.matchAll(/^ {2}([a-z][a-z-]*) {2,}/gm)].map((match) => match[1] ?? '');
  const sections = commands.map((command) => [`## \`stopwise ${command}\``, '', '```text', help([command]), '```'].join('\n'));
  return [
    '# The `stopwise` command',
    '',
    'Installed with the package (`npm i -D stopwise`, then `npx stopwise ...`). Every command prints its',
    'options with `--help`; this page is that help, generated from the CLI itself, so it cannot drift.',
    'Exit codes: 0 done, 1 a file, line or setting could not be used (one line per problem on stderr),',
    '2 a usage error; `stopwise hook` never exits 2, which hosts read as a block. A closed stdout ends a',
    'command quietly with exit 0.',
    '',
    '```text',
    top,
    '```',
    '',
    sections.join('\n\n'),
    '',
  ].join('\n');
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const page = cliPage();
  if (process.argv.includes('--write')) writeFileSync(resolve(root, 'docs/cli.md'), page);
  else process.stdout.write(page);
}
