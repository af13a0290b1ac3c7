// The installed package's own pages link only to what it ships: every relative link of every packed markdown
// file (the README, the docs, the changelog) names a file that is in the tarball, so a user reading them in
// node_modules/stopwise can open each one.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

function packedFiles(): string[] {
  const listed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--silent', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as [
    { files: { path: string }[] },
  ];
  return listed[0].files.map((file) => file.path);
}

/** The relative link targets of a markdown text: no scheme, no anchor-only link, the anchor and query cut off. */
function relativeLinks(markdown: string): string[] {
  const targets = [...markdown.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1] as string);
  return targets.filter((target) => !/^[a-z][a-z+.-]*:/i.test(target) && !target.startsWith('#')).map((target) => target.replace(/[#?].*$/, ''));
}

describe('the packed package', () => {
  it('ships every page its packed markdown links to', () => {
    const files = packedFiles();
    const shipped = new Set(files);
    const pages = files.filter((file) => file.endsWith('.md'));
    expect(pages).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'docs/hosts.md']));
    const broken = pages.flatMap((page) =>
      relativeLinks(readFileSync(join(ROOT, page), 'utf8'))
        .map((target) => normalize(join(dirname(page), target)))
        .filter((target) => !shipped.has(target))
        .map((target) => `${page} -> ${target}`),
    );
    expect(broken).toEqual([]);
  }, 60_000);
});
