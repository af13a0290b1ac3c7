// Runs every bench/*.bench.ts in name order, or only those whose name contains
// one of the command-line arguments: `npm run bench -- core`.
import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';

const folder = fileURLToPath(new URL('.', import.meta.url));
const filters = process.argv.slice(2);
const files = (await readdir(folder))
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => filters.length === 0 || filters.some((filter) => name.includes(filter)))
  .sort();

console.log(`# stopwise benchmarks (node ${process.version}, ${process.platform}/${process.arch})`);
for (const file of files) {
  const module = (await import(pathToFileURL(join(folder, file)).href)) as { default: () => Promise<void> };
  await module.default();
}
