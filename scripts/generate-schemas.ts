// The JSON Schemas the package ships, generated from the one definition of each document (zod):
//
//   tsx scripts/generate-schemas.ts           writes schemas/*.schema.json
//   tsx scripts/generate-schemas.ts --check   fails when a shipped file differs from what the definitions generate
//
// test/schemas.test.ts runs the check too.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { schemaFiles } from './schema-files.js';

const root = join(import.meta.dirname, '..');
const check = process.argv.includes('--check');
let stale = 0;
for (const { file, text } of schemaFiles()) {
  const path = join(root, 'schemas', file);
  if (check) {
    let current = '';
    try {
      current = readFileSync(path, 'utf8');
    } catch {
      // missing: stale
    }
    if (current !== text) {
      stale += 1;
      console.error(`schemas/${file} differs from what its definition generates: run tsx scripts/generate-schemas.ts and commit the file`);
    }
  } else {
    writeFileSync(path, text);
    console.log(`wrote schemas/${file}`);
  }
}
if (stale > 0) process.exit(1);
