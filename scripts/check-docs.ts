// Checks every markdown file of the project: no line over 200 characters, and every relative link and
// anchor resolves (remark-validate-links, offline). Generated files are left out: the API reference
// (docs/api/, TypeDoc) and the API reports (api/*.api.md, api-extractor), whose lines are the declarations.
// Then every program block of the README and docs/ (a ts or js block not marked `// fragment`) is compiled
// against the built package with the project's strict options, as a user's code would be; the test suite also
// runs each one and compares what it prints.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { typeCheckPrograms, writePrograms } from './doc-blocks.js';

const MAX_LINE = 200;
const root = resolve(import.meta.dirname, '..');
const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], { cwd: root, encoding: 'utf8' });
if (listed.status !== 0) {
  console.error(`git ls-files failed: ${listed.stderr.trim()}`);
  process.exit(2);
}
const files = listed.stdout.split('\n').filter((file) => file !== '' && !file.startsWith('docs/api/') && !file.startsWith('api/'));
const problems: string[] = [];
for (const file of files) {
  readFileSync(resolve(root, file), 'utf8')
    .split('\n')
    .forEach((line, index) => {
      const length = [...line].length;
      if (length > MAX_LINE) problems.push(`${file}:${index + 1}: line of ${length} characters (at most ${MAX_LINE})`);
    });
}
const cli = resolve(root, 'node_modules/remark-cli/cli.js');
const remark = spawnSync(process.execPath, [cli, '--frail', '--quiet', '--no-stdout', '--no-color', ...files], { cwd: root, encoding: 'utf8' });
if (remark.status !== 0) problems.push(remark.stderr.trim());
const outDir = join(root, 'test/.out/check-docs');
const programs = writePrograms(root, outDir);
try {
  problems.push(...typeCheckPrograms(root, programs));
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`${files.length} markdown files: links resolve, no line over ${MAX_LINE} characters; ${programs.length} program blocks compile under strict checking`);
