import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';

/** A project made for one run: the project folder, and a home folder and a temporary folder of its own. */
export interface ScratchProject {
  /** The folder holding all three, removed by {@link removeScratchProject}. */
  readonly base: string;
  readonly dir: string;
  readonly home: string;
  /** TMPDIR of every process of the run, so that what a host writes there goes with the run. */
  readonly tmp: string;
}

/** The code under test: `add` subtracts until the agent fixes it. */
export const BROKEN_MATH = 'export const add = (a, b) => a - b;\n';
/** The shell command that fixes it, as the scripted agent runs it. */
export const FIX_COMMAND = "echo 'export const add = (a, b) => a + b;' > math.js";
/** The one test, its name as the TAP report gives it. */
export const TEST_NAME = 'add sums two numbers';
export const MATH_TEST = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { add } from '../math.js';

test('${TEST_NAME}', () => {
  assert.equal(add(2, 3), 5);
});
`;

/**
 * A fresh project for one run, from the template: its `package.json`, its
 * `node_modules` (a link to the template's, where the packed stopwise is
 * installed: a copy of about 1,400 files would cost seconds per run), and
 * `math.js` with its bug and `test/math.test.js` (or the files given
 * instead), in a folder of the suite's temporary folder.
 */
export function createScratchProject(name: string, files: Readonly<Record<string, string>> = { 'math.js': BROKEN_MATH, 'test/math.test.js': MATH_TEST }): ScratchProject {
  const base = mkdtempSync(join(inject('hostsRoot'), `${name}-`));
  const dir = join(base, 'project');
  const home = join(base, 'home');
  const tmp = join(base, 'tmp');
  const template = inject('scratchTemplate');
  mkdirSync(dir);
  mkdirSync(home);
  mkdirSync(tmp);
  copyFileSync(join(template, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(template, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const project = { base, dir, home, tmp };
  for (const [path, text] of Object.entries(files)) writeProjectFile(project, path, text);
  return project;
}

export function removeScratchProject(project: ScratchProject | undefined): void {
  if (project !== undefined) rmSync(project.base, { recursive: true, force: true });
}

export function writeProjectFile(project: ScratchProject, path: string, text: string): void {
  const file = join(project.dir, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

export function readProjectFile(project: ScratchProject, path: string): string {
  return readFileSync(join(project.dir, path), 'utf8');
}

/** The environment of a command run as the person: PATH, a home and a temporary folder of the run's own, nothing else of this process. */
export function personEnv(project: ScratchProject): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: project.home, TMPDIR: project.tmp, LANG: 'C.UTF-8', npm_config_update_notifier: 'false' };
}

/** `npx stopwise init <host>` in the project, exactly as a user runs it. */
export async function initStopwise(project: ScratchProject, host: string): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)('npx', ['--no-install', 'stopwise', 'init', host], { cwd: project.dir, env: personEnv(project), encoding: 'utf8' });
}

/** One line of `.stopwise/outcomes.jsonl`, the fields the suite reads. */
export interface OutcomeLine {
  readonly outcome: {
    readonly exit: string;
    /** The engine's decision, when the engine decided the stop (not for a hand-off of the tool guard's). */
    readonly decision?: { readonly reason?: string };
    /** The line the person was given, for a hand-off. */
    readonly question?: string;
  };
}

/** The outcome records the stop hook appended (none when the file is missing). */
export function readOutcomes(project: ScratchProject): OutcomeLine[] {
  const file = join(project.dir, '.stopwise/outcomes.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as OutcomeLine);
}

/** A session state file, the fields the suite reads. */
export interface SessionStateFile {
  readonly stop: { readonly retries: number; readonly step: number } | null;
  readonly lastStop?: { readonly kind: 'block' | 'handoff' | 'allow'; readonly previousRunEndedBy?: string };
  readonly tools: { readonly totals: { readonly recorded: number; readonly nudges: number; readonly refusals: number; readonly handOffs: number } } | null;
}

/** Every session state the hooks wrote. */
export function readSessionStates(project: ScratchProject): SessionStateFile[] {
  const folder = join(project.dir, '.stopwise/state');
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.startsWith('session-') && name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(join(folder, name), 'utf8')) as SessionStateFile);
}

/** Edits the project's `stopwise.config.json`. */
export function editConfig(project: ScratchProject, edit: (config: Record<string, unknown>) => Record<string, unknown>): void {
  const file = join(project.dir, 'stopwise.config.json');
  writeFileSync(file, `${JSON.stringify(edit(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>), null, 2)}\n`);
}
