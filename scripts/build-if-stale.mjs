#!/usr/bin/env node
// Builds dist/ with tsup unless the last successful build was made from the same inputs and dist/ is as that
// build left it. Inputs are compared by content (a fresh clone gives every file a new modification time), and
// the stamp that says "fresh" is removed before a build starts and written only after it succeeded, so a failed
// or interrupted build is always rebuilt. `--force` builds whatever the stamp says.
//
//   node scripts/build-if-stale.mjs [--force]

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** What the build reads: the sources, the build's configuration and the installed packages (through the lockfile). */
const INPUTS = ['src', 'tsup.config.ts', 'tsconfig.json', 'package.json', 'package-lock.json', 'scripts/build-if-stale.mjs'];
const DIST = join(root, 'dist');
// One stamp per project folder: a copy of the project that links this node_modules keeps its own.
const STAMP = join(root, 'node_modules/.cache/stopwise', `build-stamp-${createHash('sha256').update(realpathSync(root)).digest('hex').slice(0, 16)}.json`);

/** Every regular file under `path` (or `path` itself), as sorted paths relative to the project, with `/` separators. */
async function listFiles(path) {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    if (error.code === 'ENOENT') return [];
    throw error;
  }
  if (info.isFile()) return [relative(root, path).split(sep).join('/')];
  const entries = await readdir(path, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

/** A SHA-256 of each input file's content, by path. */
async function hashInputs() {
  const files = (await Promise.all(INPUTS.map((input) => listFiles(join(root, input))))).flat().sort();
  const hashes = await Promise.all(files.map(async (file) => createHash('sha256').update(await readFile(join(root, file))).digest('hex')));
  return Object.fromEntries(files.map((file, index) => [file, hashes[index]]));
}

/** The size and modification time of each file in dist/: enough to see that something rebuilt or removed part of it. */
async function describeDist() {
  const files = await listFiles(DIST);
  const infos = await Promise.all(files.map((file) => stat(join(root, file))));
  return Object.fromEntries(files.map((file, index) => [file, `${infos[index].size}:${infos[index].mtimeMs}`]));
}

/** The files package.json promises: every `exports` target and the `bin`. */
async function promisedOutputs() {
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  const targets = [];
  const collect = (value) => {
    if (typeof value === 'string') targets.push(value);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(collect);
  };
  collect(pkg.exports);
  collect(pkg.bin);
  return targets.filter((target) => target.startsWith('./dist/')).map((target) => target.slice(2));
}

async function readStamp() {
  try {
    return JSON.parse(await readFile(STAMP, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Why a build is needed, or `undefined` when dist/ is fresh. */
function staleness(stamp, inputs, dist) {
  if (stamp === undefined) return 'no earlier build was recorded';
  const changed = [...new Set([...Object.keys(inputs), ...Object.keys(stamp.inputs ?? {})])]
    .filter((file) => inputs[file] !== stamp.inputs?.[file])
    .sort();
  if (changed.length > 0) {
    const shown = changed.slice(0, 3).join(', ');
    return `${changed.length === 1 ? shown : `${changed.length} files, ${shown}${changed.length > 3 ? ', …' : ''},`} changed since the last build`;
  }
  const distChanged = [...new Set([...Object.keys(dist), ...Object.keys(stamp.dist ?? {})])].some((file) => dist[file] !== stamp.dist?.[file]);
  if (distChanged) return 'dist/ changed since the last build';
  return undefined;
}

/** The lines of tsup's report that list the files it wrote, or say it started or finished: shown only when the build fails. */
const ROUTINE = /^(?:\x1b\[[0-9;]*m)*(?:CLI|ESM|DTS|CJS)\b|Build (?:start|success)|^\s*$/;

function runTsup() {
  const tsup = createRequire(join(root, 'package.json')).resolve('tsup/dist/cli-default.js');
  return new Promise((resolve, reject) => {
    // tsup's report is kept: a build that works says one line (and any warning), one that fails shows all of it, on
    // standard error, so that a command's own output (`npm pack --json`) stays clean.
    const child = spawn(process.execPath, [tsup], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let report = '';
    child.stdout.on('data', (chunk) => (report += chunk));
    child.stderr.on('data', (chunk) => (report += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) {
        const notes = report.split('\n').filter((line) => !ROUTINE.test(line));
        if (notes.length > 0) process.stderr.write(`${notes.join('\n')}\n`);
        resolve(undefined);
      } else {
        process.stderr.write(report);
        resolve(signal ?? `exit code ${code}`);
      }
    });
  });
}

async function main() {
  const force = process.argv.includes('--force');
  const inputs = await hashInputs();
  const reason = force ? 'asked to' : staleness(await readStamp(), inputs, await describeDist());
  if (reason === undefined) return 0;
  process.stderr.write(`building stopwise (${reason})…\n`);
  const started = Date.now();
  await rm(STAMP, { force: true });
  const failure = await runTsup();
  if (failure !== undefined) {
    process.stderr.write(`the build failed (${failure}); dist/ is not marked fresh\n`);
    return 1;
  }
  const outputs = await promisedOutputs();
  const dist = await describeDist();
  const missing = outputs.filter((output) => dist[output] === undefined);
  if (missing.length > 0) {
    process.stderr.write(`the build did not write ${missing.join(', ')}; dist/ is not marked fresh\n`);
    return 1;
  }
  process.stderr.write(`built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  // The inputs hashed before the build: a file edited while it ran makes the next run build again.
  await mkdir(dirname(STAMP), { recursive: true });
  await writeFile(`${STAMP}.tmp`, `${JSON.stringify({ inputs, dist }, null, 1)}\n`);
  await rename(`${STAMP}.tmp`, STAMP);
  return 0;
}

process.exitCode = await main();
