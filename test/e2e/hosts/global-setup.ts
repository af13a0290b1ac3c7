import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The suite's temporary folder: every scratch project is made in it. */
    hostsRoot: string;
    /** A project with the packed stopwise installed, copied for each scratch project. */
    scratchTemplate: string;
  }
}

const REPOSITORY = join(import.meta.dirname, '../../..');

/** The project every scratch project starts from: `node --test` as its test script. */
const TEMPLATE_PACKAGE = { name: 'scratch-project', version: '1.0.0', private: true, type: 'module', scripts: { test: 'node --test' } };

/**
 * Packs this checkout once (`npm pack`, which builds dist/ when it is stale)
 * or takes the tarball `STOPWISE_HOSTS_TARBALL` names, and installs it into a
 * template project, as a user would (`npm i -D <tarball>`). Removes the
 * suite's temporary folder at the end.
 */
export default function setup(project: TestProject): () => void {
  const root = mkdtempSync(join(tmpdir(), 'stopwise-hosts-'));
  try {
    const given = process.env.STOPWISE_HOSTS_TARBALL;
    let tarball: string;
    if (given !== undefined && given !== '') tarball = resolve(given);
    else {
      execFileSync('npm', ['pack', '--pack-destination', root, '--silent'], { cwd: REPOSITORY, stdio: ['ignore', 'ignore', 'inherit'] });
      const packed = readdirSync(root).find((name) => name.endsWith('.tgz'));
      if (packed === undefined) throw new Error('npm pack wrote no tarball');
      tarball = join(root, packed);
    }
    const template = join(root, 'template');
    mkdirSync(template);
    writeFileSync(join(template, 'package.json'), `${JSON.stringify(TEMPLATE_PACKAGE, null, 2)}\n`);
    execFileSync('npm', ['install', '--save-dev', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', '--loglevel=error', tarball], {
      cwd: template,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    console.log(`host suite: stopwise from ${basename(tarball)} installed in the scratch template`);
    project.provide('hostsRoot', root);
    project.provide('scratchTemplate', template);
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  return () => rmSync(root, { recursive: true, force: true });
}
