import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolders } from '../support/temp-folders.js';
import { entryCommandLine, hookCommand, isStopwiseCommand, launcherPath, launcherScript, stopwiseCommands } from '../../src/hosts/hook-command.js';
import { HOOK_HOSTS, HOSTS } from '../../src/hosts/host.js';
import { contract, payloadText } from './host-fixtures.js';

const REPO = join(import.meta.dirname, '../..');

const tempFolder = tempFolders();
const folder = (): string => tempFolder('stopwise-launcher-');

/** Writes a host's launcher into `project` as `init` does. */
function writeLauncher(project: string, host: (typeof HOOK_HOSTS)[number]): string {
  const path = join(project, launcherPath(HOSTS[host]));
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, launcherScript(HOSTS[host]));
  return path;
}

/** Links this checkout as the stopwise install of `dir`'s node_modules. */
function install(dir: string): void {
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  symlinkSync(REPO, join(dir, 'node_modules/stopwise'), 'dir');
}

/** The absolute path of `program` on this PATH, if it is there. */
function findProgram(program: string): string | undefined {
  return (process.env.PATH ?? '')
    .split(':')
    .map((dir) => join(dir, program))
    .find((path) => existsSync(path));
}

/**
 * The POSIX shells a host may run its hook line in, those found here: dash (the sh of Debian and Ubuntu), bash as
 * macOS's sh runs it (`--posix`), bash (Copilot's `bash` entries), busybox's sh (Alpine's).
 */
const SHELLS: readonly (readonly string[])[] = [['dash'], ['bash', '--posix'], ['bash'], ['busybox', 'sh']].filter(([program]) => findProgram(program ?? '') !== undefined);

/**
 * Runs `host`'s hook command (or `command`) in `project` as the host does (`sh -c`, or `shell`, in `cwd`, with the
 * host's project folder variable when it sets one), with an `npx` on PATH that only records that it ran; stdin (by
 * default not JSON, so that stopwise, when it runs, says so) as given. `node`: a stand-in on PATH that exits with
 * this code, or none on PATH at all.
 */
function runLauncher(
  host: (typeof HOOK_HOSTS)[number],
  project: string,
  {
    cwd = project,
    input = 'not json',
    command = hookCommand(HOSTS[host], 'linux'),
    shell = ['sh'],
    node,
  }: { cwd?: string; input?: string; command?: string; shell?: readonly string[]; node?: number | 'missing' } = {},
): { status: number | null; stdout: string; stderr: string; npxRan: boolean } {
  const bin = folder();
  const marker = join(bin, 'npx-ran');
  writeFileSync(join(bin, 'npx'), `#!/bin/sh\ntouch '${marker}'\n`);
  chmodSync(join(bin, 'npx'), 0o755);
  if (typeof node === 'number') {
    writeFileSync(join(bin, 'node'), `#!/bin/sh\nexit ${node}\n`);
    chmodSync(join(bin, 'node'), 0o755);
  }
  // Without node: PATH holds the shells and nothing else.
  if (node === 'missing') {
    for (const program of ['sh', 'dash', 'bash', 'busybox']) {
      const found = findProgram(program);
      if (found !== undefined) symlinkSync(found, join(bin, program));
    }
  }
  const variable = HOSTS[host].command.projectDirVariable;
  const path = node === 'missing' ? bin : `${bin}:${process.env.PATH ?? ''}`;
  const env = { PATH: path, HOME: cwd, ...(variable === undefined ? {} : { [variable]: project }) };
  const [program = 'sh', ...flags] = shell;
  const run = spawnSync(findProgram(program) ?? program, [...flags, '-c', command], { cwd, input, encoding: 'utf8', env });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, npxRan: existsSync(marker) };
}

describe('launcherPath and hookCommand', () => {
  it('puts the launcher beside the settings file, and reads it into the hook\'s shell through the project folder variable when the host sets one', () => {
    expect(HOOK_HOSTS.map((name) => launcherPath(HOSTS[name]))).toEqual([
      '.claude/stopwise.sh',
      '.codex/stopwise.sh',
      '.cursor/stopwise.sh',
      '.github/hooks/stopwise.sh',
      '.gemini/stopwise.sh',
    ]);
    expect(hookCommand(HOSTS['claude-code'], 'darwin')).toBe('command . "$CLAUDE_PROJECT_DIR"/.claude/stopwise.sh || exit 1');
    expect(hookCommand(HOSTS.codex, 'linux')).toBe("sh -c 'command . .codex/stopwise.sh || exit 1'");
    expect(hookCommand(HOSTS.cursor, 'linux')).toBe(`sh -c 'command . "$CURSOR_PROJECT_DIR"/.cursor/stopwise.sh || exit 1'`);
    expect(hookCommand(HOSTS.copilot, 'linux')).toBe('command . .github/hooks/stopwise.sh || exit 0');
    // Gemini substitutes a bare $GEMINI_PROJECT_DIR itself; the braced form with a default is left to the shell.
    expect(hookCommand(HOSTS.gemini, 'linux')).toBe('command . "${GEMINI_PROJECT_DIR:-.}"/.gemini/stopwise.sh || exit 1');
    for (const name of HOOK_HOSTS) expect(hookCommand(HOSTS[name], 'win32')).toBe(`npx --offline --no-install stopwise hook ${name}`);
  });
});

describe('the launcher', () => {
  it.each(HOOK_HOSTS)("runs the %s hook of the project's own install with node, from any folder the host names the project for, never npx", (name) => {
    const project = folder();
    install(project);
    writeLauncher(project, name);
    mkdirSync(join(project, 'src/deep'), { recursive: true });
    // A host without a project folder variable runs its hooks in the project folder.
    const folders = HOSTS[name].command.projectDirVariable === undefined ? [project] : [project, join(project, 'src/deep')];
    // The command init writes, and the launcher run with sh, as a command written before it or a recipe that sets a
    // variable in front of it does.
    const commands = [hookCommand(HOSTS[name], 'linux'), `sh ${JSON.stringify(join(project, launcherPath(HOSTS[name])))}`];
    for (const cwd of folders) {
      for (const command of commands) {
        const run = runLauncher(name, project, { cwd, command });
        expect(run.stderr, command).toMatch(new RegExp(`^stopwise hook ${name}: stdin is not valid JSON`));
        expect(run.status).toBe(HOSTS[name].unreadableExitCode);
        expect(run.npxRan).toBe(false);
      }
    }
  });

  it.each(HOOK_HOSTS)('lets the stop go ahead when the %s launcher is missing, and the shell names the file', (name) => {
    const project = folder();
    install(project);
    const spec = contract(name);
    // Read with a bare `.`, a file dash or busybox cannot open ends the shell with 2, a block on most hosts: one of them
    // must be here for this test to see that (Debian, Ubuntu and macOS have dash, Alpine has busybox).
    expect(SHELLS.some(([program]) => program === 'dash' || program === 'busybox')).toBe(true);
    // The shell fails before anything reads the payload: a stop stands for every event.
    for (const shell of SHELLS) {
      const run = runLauncher(name, project, { input: payloadText(name, spec.session.stop, project), shell });
      expect(run.status, shell.join(' ')).toBe(HOSTS[name].unreadableExitCode);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(launcherPath(HOSTS[name]));
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.npxRan).toBe(false);
    }
  });

  it.each(HOOK_HOSTS)("hands the %s host Node's exit code unchanged, in every shell, and lets it go ahead when node is not on PATH", (name) => {
    const project = folder();
    install(project);
    writeLauncher(project, name);
    for (const shell of SHELLS) {
      // 2 is a block, or Copilot's guidance after a failed call: it must reach the host as it is.
      for (const code of [0, 2]) expect(runLauncher(name, project, { shell, node: code }).status, `${shell.join(' ')} node exits ${code}`).toBe(code);
      const missing = runLauncher(name, project, { shell, node: 'missing' });
      expect(missing.status, `${shell.join(' ')} without node`).toBe(HOSTS[name].unreadableExitCode);
      expect(missing.stderr).toBe("stopwise: node is not on the hook's PATH; the stop hook and the tool guard did not run\n");
    }
  });

  it('walks up to six folders above the project for node_modules (an install hoisted to a workspace root), and no further', () => {
    const root = folder();
    install(root);
    const six = join(root, 'a/b/c/d/e/f');
    const seven = join(root, 'a/b/c/d/e/f/g');
    mkdirSync(seven, { recursive: true });
    writeLauncher(six, 'codex');
    const found = runLauncher('codex', six);
    expect(found.stderr).toMatch(/^stopwise hook codex: stdin is not valid JSON/);
    writeLauncher(seven, 'codex');
    const beyond = runLauncher('codex', seven);
    expect(beyond.stderr).toMatch(/^stopwise: not installed in this project \(npm i -D stopwise\)/);
  });

  it.each(HOOK_HOSTS)('says in one line how to install stopwise where it is not installed, and which part of the %s hook did not run; it lets the stop or the call go ahead and downloads nothing', (name) => {
    const project = join(folder(), 'a/b/c/d/e/f/g/project');
    mkdirSync(project, { recursive: true });
    writeLauncher(project, name);
    const spec = contract(name);
    const said = (file: string) => {
      const run = runLauncher(name, project, { input: payloadText(name, file, project) });
      expect(run.stdout).toBe('');
      expect(run.status).toBe(HOSTS[name].unreadableExitCode);
      expect(run.npxRan).toBe(false);
      return run.stderr;
    };
    expect(said(spec.session.stop)).toBe('stopwise: not installed in this project (npm i -D stopwise); the stop hook did not run, the stop goes ahead unchecked\n');
    for (const file of [spec.session.pre, spec.session.post]) expect(said(file), file).toBe('stopwise: not installed in this project (npm i -D stopwise); the tool guard did not check this call\n');
  });
});

describe('isStopwiseCommand and stopwiseCommands', () => {
  it('recognises the launcher and every form of `stopwise hook <host>`, for that host only', () => {
    for (const name of HOOK_HOSTS) {
      expect(isStopwiseCommand({ command: hookCommand(HOSTS[name], 'linux') }, name)).toBe(true);
      expect(isStopwiseCommand({ command: hookCommand(HOSTS[name], 'win32') }, name)).toBe(true);
    }
    expect(isStopwiseCommand({ command: 'npx', args: ['--offline', '--no-install', 'stopwise', 'hook', 'claude-code'] }, 'claude-code')).toBe(true);
    expect(isStopwiseCommand({ command: 'node_modules/.bin/stopwise hook claude-code' }, 'claude-code')).toBe(true);
    expect(isStopwiseCommand({ type: 'command', bash: 'npx stopwise hook copilot', powershell: 'npx stopwise hook copilot' }, 'copilot')).toBe(true);
    expect(isStopwiseCommand({ command: 'npx stopwise hook codex' }, 'claude-code')).toBe(false);
    expect(isStopwiseCommand({ command: 'npx stopwise hook claude-codex' }, 'claude-code')).toBe(false);
    expect(isStopwiseCommand({ command: './scripts/notify.sh' }, 'claude-code')).toBe(false);
    expect(isStopwiseCommand({ command: 'sh my-stopwise.sh.bak' }, 'claude-code')).toBe(false);
  });

  it('finds the stopwise records of an entry, nested or flat, and none in anything else', () => {
    const ours = { type: 'command', command: 'sh .codex/stopwise.sh', timeout: 330 };
    const theirs = { type: 'command', command: './notify.sh' };
    expect(stopwiseCommands({ hooks: [theirs, ours] }, 'codex')).toEqual([ours]);
    expect(stopwiseCommands(ours, 'codex')).toEqual([ours]);
    for (const entry of [theirs, null, 'sh .codex/stopwise.sh', [ours], { hooks: 'x' }]) expect(stopwiseCommands(entry, 'codex')).toEqual([]);
  });

  it("reads an entry's whole command line: the command, its arguments, Copilot's bash and powershell", () => {
    expect(entryCommandLine({ command: 'npx', args: ['stopwise', 7, 'hook'] })).toBe('npx stopwise hook');
    expect(entryCommandLine({ bash: 'sh a.sh', powershell: 'npx b' })).toBe(' sh a.sh npx b');
    expect(entryCommandLine({})).toBe('');
  });
});
