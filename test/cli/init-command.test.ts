import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it } from 'vitest';
import { hookCommand, launcherPath, launcherScript } from '../../src/hosts/hook-command.js';
import { HOOK_HOSTS, HOSTS } from '../../src/hosts/host.js';
import { installHooks } from '../../src/hosts/settings-file.js';
import { parseStopwiseConfig } from '../../src/hosts/stopwise-config.js';
import type { DoctorReport } from '../../src/cli/doctor-report.js';
import { bind, contract, payloadText, readOutput } from '../hosts/host-fixtures.js';
import { HOOK_FREE_ENV, runCli, type CliRun } from './run-cli.js';

const REPO = join(import.meta.dirname, '../..');
const validateConfig = new Ajv2020({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(join(REPO, 'schemas/stopwise-config.schema.json'), 'utf8')) as object);
const RED = "printf 'TAP version 13\\n1..1\\nnot ok 1 - auth > refreshes\\n'; exit 1";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folder(prefix = 'stopwise-init-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  folders.push(dir);
  return dir;
}

const init = (dir: string, ...args: string[]) => runCli(['init', ...args], { cwd: dir, env: HOOK_FREE_ENV, timeoutMs: 60_000 });
const read = (dir: string, path: string) => readFileSync(join(dir, path), 'utf8');
const json = (dir: string, path: string) => JSON.parse(read(dir, path)) as Record<string, unknown>;

/** Every file under `dir` with its text, links as links. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile()) files[path.slice(dir.length + 1)] = readFileSync(path, 'utf8');
    else if (entry.isSymbolicLink()) files[path.slice(dir.length + 1)] = '(link)';
  }
  return files;
}

describe('stopwise init <host>, then stopwise doctor, on a new project', { timeout: 120_000 }, () => {
  it.each(HOOK_HOSTS)('%s: writes the configuration, the settings, the launcher and .gitignore, changes nothing the second time, doctor finds it sound and the installed command blocks a red stop', async (name) => {
    const host = HOSTS[name];
    const dir = folder();
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'scratch', devDependencies: { stopwise: '*' } }));
    writeFileSync(join(dir, 'run-tests.sh'), `${RED}\n`);
    const first = await init(dir, name, '--test-command', 'sh run-tests.sh');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`${host.settingsFile}: stop hook added (\`${hookCommand(host)}\`; timeout 330 s)`);
    expect(first.stdout).toContain(`${launcherPath(host)}: written (the hook command runs it: the project's own stopwise, with Node, never a download)`);
    expect(first.stdout).not.toMatch(/not a dependency/);
    expect(first.stdout.trimEnd().endsWith(host.note)).toBe(true);
    const installed = installHooks(host, undefined, { timeoutSeconds: 330, tools: 'matched' });
    expect(installed.ok && json(dir, host.settingsFile)).toEqual(installed.ok && installed.value);
    expect(read(dir, launcherPath(host))).toBe(launcherScript(host));
    expect(read(dir, '.gitignore')).toBe('.stopwise/\n');

    const before = snapshot(dir);
    const again = await init(dir, name);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/stopwise\.config\.json: already there, left as it is\n.*the stopwise stop hook is already there, left as it is\n\.gitignore: already ignores \.stopwise\//);
    expect(snapshot(dir)).toEqual(before);

    const doctor = await runCli(['doctor', name, '--json'], { cwd: dir, env: HOOK_FREE_ENV, timeoutMs: 60_000 });
    const report = JSON.parse(doctor.stdout) as DoctorReport;
    expect(report.checks.hosts).toMatchObject({ status: 'ok', hosts: [{ host: name, file: host.settingsFile, registered: true, timeoutSeconds: 330, deadlineSeconds: 320 }] });
    expect(report.problems, doctor.stdout).toEqual([]);
    expect(doctor.code).toBe(0);

    // The project installs stopwise (this checkout); the host runs the command init wrote.
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(REPO, join(dir, 'node_modules/stopwise'), 'dir');
    const variable = host.command.projectDirVariable;
    const spec = contract(name);
    const run = spawnSync('sh', ['-c', hookCommand(host)], {
      cwd: dir,
      input: payloadText(name, spec.session.stop, dir),
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: dir, TMPDIR: tmpdir(), ...(variable === undefined ? {} : { [variable]: dir }) },
    });
    const answer = bind(spec.stopAnswers.block, readOutput({ exitCode: run.status ?? -1, stdout: run.stdout, stderr: run.stderr }));
    expect(answer?.reason, `${run.stdout}${run.stderr}`).toMatch(/^1 test failed: check:sh run-tests\.sh\. .*: not ok 1 - auth > refreshes$/s);
  });
});

describe('stopwise init', { timeout: 120_000 }, () => {
  it('exits 2 with a hint, writing nothing, when it finds no test command and cannot ask for one', async () => {
    const dir = folder();
    const run = await init(dir, 'claude-code');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('stopwise init: no test command found in package.json; pass one with --test-command "npm test"\n');
    expect(readdirSync(dir)).toEqual([]);
  });

  it("writes a starter configuration the shipped schema accepts, with a warning for a command that writes no report, and says stopwise is not a dependency", async () => {
    const dir = folder();
    const run = await init(dir, 'claude-code', '--test-command', 'make test');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^stopwise\.config\.json: written, tests run with `make test` \(--test-command\); evidence: the exit code alone \(see the warning\)\n/);
    expect(run.stderr).toMatch(/^stopwise init: WARNING: `make test` writes no test report stopwise can read, so the hook will judge the tests by its exit code alone/);
    const config = json(dir, 'stopwise.config.json');
    expect(config).toEqual({
      $schema: './node_modules/stopwise/schemas/stopwise-config.schema.json',
      task: '',
      acceptance: [],
      tests: { command: 'make test', report: { format: 'exit-code' } },
      decisionModel: { client: 'none' },
      maxConsecutiveBlocks: 1,
      outcomesFile: '.stopwise/outcomes.jsonl',
    });
    expect(parseStopwiseConfig(config).ok).toBe(true);
    expect(validateConfig(config), JSON.stringify(validateConfig.errors)).toBe(true);
    expect(run.stdout).toContain('stopwise is not a dependency in package.json: the hook never downloads it, so until it is installed (`npm i -D stopwise`) every stop goes ahead unchecked with a message saying so.');
  });

  it('detects vitest from package.json, with its JSON report', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'vitest' }, devDependencies: { vitest: '^4.1.0', stopwise: '^0.2.0' } }));
    const run = await init(dir, 'codex');
    expect(run.code, run.stderr).toBe(0);
    expect(json(dir, 'stopwise.config.json').tests).toEqual({
      command: 'npx',
      args: ['vitest', 'run', '--reporter=json', '--outputFile=.stopwise/test-report.json'],
      report: { format: 'vitest-json', path: '.stopwise/test-report.json' },
    });
    expect(run.stdout).toMatch(/Codex runs project hooks once you trust them/);
  });

  it("keeps the user's hooks and settings, an existing configuration (its timeouts setting the host's), and .gitignore", async () => {
    const dir = folder();
    mkdirSync(join(dir, '.claude'));
    const settings = {
      permissions: { allow: ['Bash(npm run lint)'] },
      hooks: {
        PostToolUse: [{ matcher: 'Write|Edit', hooks: [{ type: 'command', command: 'npx prettier --write "$CLAUDE_FILE_PATHS"' }] }],
        Stop: [{ hooks: [{ type: 'command', command: './scripts/notify.sh', timeout: 5 }] }],
      },
    };
    writeFileSync(join(dir, '.claude/settings.json'), JSON.stringify(settings, null, 2));
    const config = { task: 'Ship it', tests: { command: 'npm test', timeoutMs: 60_000 } };
    writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify(config));
    writeFileSync(join(dir, '.gitignore'), 'node_modules\ndist');
    const run = await init(dir, 'claude-code');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^stopwise\.config\.json: already there, left as it is\n/);
    expect(json(dir, 'stopwise.config.json')).toEqual(config);
    // tests 60 s + 2 × 30 s + 20 s, and 10 s for the host: 150 s
    const expected = installHooks(HOSTS['claude-code'], settings, { timeoutSeconds: 150, tools: 'matched' });
    expect(expected.ok && json(dir, '.claude/settings.json')).toEqual(expected.ok && expected.value);
    expect((json(dir, '.claude/settings.json').hooks as Record<string, unknown[]>).Stop?.[0]).toEqual(settings.hooks.Stop[0]);
    expect(read(dir, '.gitignore')).toBe('node_modules\ndist\n.stopwise/\n');
  });

  it('says what is wrong with an existing configuration, and leaves it', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'stopwise.config.json'), JSON.stringify({ tests: { comand: 'x' } }));
    const run = await init(dir, 'codex');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^stopwise\.config\.json: already there, left as it is \(it is not valid: tests\.command: required \(a string\); tests\.comand: unknown field \(did you mean "command"\?\)\)\n/);
  });

  it('refuses settings it cannot read or of a shape the host does not read, writing nothing, and sets everything up once they are fixed', async () => {
    const dir = folder();
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude/settings.json'), '{ "hooks": ');
    const before = snapshot(dir);
    const run = await init(dir, 'claude-code', '--test-command', 'node --test');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^stopwise init: .*\.claude\/settings\.json: not valid JSON .*; not touching it, and nothing was written\n$/);
    expect(snapshot(dir)).toEqual(before);
    writeFileSync(join(dir, '.claude/settings.json'), JSON.stringify({ hooks: { Stop: 'npx stopwise' } }));
    expect((await init(dir, 'claude-code', '--test-command', 'node --test')).stderr).toBe(
      'stopwise init: .claude/settings.json: "hooks.Stop" must be an array, got "npx stopwise"; not touching it, and nothing was written\n',
    );
    writeFileSync(join(dir, '.claude/settings.json'), '{}');
    const fixed = await init(dir, 'claude-code', '--test-command', 'node --test');
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toMatch(/^stopwise\.config\.json: written/);
  });

  it('puts back every file it wrote when a later write fails', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'node --test' } }));
    mkdirSync(join(dir, '.codex'));
    writeFileSync(join(dir, '.codex/hooks.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: './notify.sh' }] }] } }));
    // a .gitignore that reads as absent but cannot be written: a link into a folder that does not exist
    symlinkSync(join(dir, 'no-such-folder/ignore'), join(dir, '.gitignore'));
    const before = snapshot(dir);
    const run = await init(dir, 'codex');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^stopwise init: .*\.gitignore: could not be written \(no such file or folder\); every file is left as it was\n$/);
    expect(run.stdout).toBe('');
    expect(snapshot(dir)).toEqual(before);
    const fresh = folder();
    symlinkSync(join(fresh, 'no-such-folder/ignore'), join(fresh, '.gitignore'));
    expect((await init(fresh, 'copilot', '--test-command', 'node --test')).code).toBe(1);
    expect(readdirSync(fresh)).toEqual(['.gitignore']);
  });

  it('writes the exec form for Claude Code with --exec, once, and no launcher', async () => {
    const dir = folder();
    const run = await init(dir, 'claude-code', '--exec', '--no-tool-guard', '--test-command', 'node --test');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('.claude/settings.json: stop hook added (exec form: npx --offline --no-install stopwise hook claude-code; timeout 330 s)');
    expect(json(dir, '.claude/settings.json')).toEqual({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'npx', args: ['--offline', '--no-install', 'stopwise', 'hook', 'claude-code'], timeout: 330 }] }] },
    });
    expect(existsSync(join(dir, '.claude/stopwise.sh'))).toBe(false);
    const first = snapshot(dir);
    expect((await init(dir, 'claude-code', '--exec', '--no-tool-guard')).code).toBe(0);
    expect(snapshot(dir)).toEqual(first);
  });

  it('replaces an installed hook whose npx could download stopwise with the current command', async () => {
    const dir = folder();
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude/settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'npx stopwise hook claude-code', timeout: 60 }] }] } }));
    const run = await init(dir, 'claude-code', '--test-command', 'node --test', '--no-tool-guard');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`.claude/settings.json: stopwise hooks updated to the current command (\`${hookCommand(HOSTS['claude-code'])}\`; timeout 330 s)`);
    expect(json(dir, '.claude/settings.json')).toEqual({ hooks: { Stop: [{ hooks: [{ type: 'command', command: hookCommand(HOSTS['claude-code']), timeout: 330 }] }] } });
  });

  it('adds the stop hook alone with --no-tool-guard, and the tool hooks on every tool to it later with --guard-all-tools', async () => {
    for (const name of ['claude-code', 'gemini'] as const) {
      const host = HOSTS[name];
      const dir = folder();
      expect((await init(dir, name, '--no-tool-guard', '--test-command', 'node --test')).code).toBe(0);
      expect(Object.keys(json(dir, host.settingsFile).hooks as object)).toEqual([host.events.stop]);
      const run = await init(dir, name, '--guard-all-tools');
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(`${host.settingsFile}: the stopwise stop hook is already there, left as it is\n${host.settingsFile}: tool guard added on ${host.events.tools.join(', ')}\n`);
      const hooks = json(dir, host.settingsFile).hooks as Record<string, Record<string, unknown>[]>;
      for (const event of host.events.tools) expect(hooks[event]?.[0]).not.toHaveProperty('matcher');
    }
  });

  it('exits 2 on a usage error', async () => {
    const dir = folder();
    for (const args of [[], ['windsurf'], ['codex', 'cursor'], ['codex', '--test-command', ' '], ['codex', '--bogus'], ['codex', '--exec'], ['claude-code', '--no-tool-guard', '--guard-all-tools']]) {
      const run = await init(dir, ...args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/^stopwise init: /);
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('the configuration stopwise init writes, run by the hook', { timeout: 120_000 }, () => {
  const stop = (dir: string, session: string): Promise<CliRun> =>
    runCli(['hook', 'claude-code'], {
      cwd: dir,
      input: JSON.stringify({ session_id: session, cwd: dir, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'Done.' }),
      env: HOOK_FREE_ENV,
      timeoutMs: 90_000,
    });

  /** The hook's answer to a stop on the suite as it is, then after `breakIt`. */
  async function greenThenRed(dir: string, breakIt: () => void): Promise<{ green: string; red: Record<string, unknown> }> {
    const green = await stop(dir, 'green');
    expect(green.code, green.stderr).toBe(0);
    breakIt();
    const red = await stop(dir, 'red');
    expect(red.code, red.stderr).toBe(0);
    return { green: green.stdout, red: JSON.parse(red.stdout) as Record<string, unknown> };
  }

  it('keeps the flags of a node --test script, reads its TAP, lets a passing suite stop and names the failing test', async () => {
    const dir = folder('stopwise-init-node-');
    mkdirSync(join(dir, 'test'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', scripts: { test: 'node --import ./setup.mjs --test test/answer.test.mjs' } }));
    writeFileSync(join(dir, 'setup.mjs'), 'globalThis.answer = 42;\n');
    const test = (expected: number) =>
      writeFileSync(join(dir, 'test/answer.test.mjs'), `import test from 'node:test';\nimport assert from 'node:assert/strict';\ntest('the answer', () => assert.equal(globalThis.answer, ${expected}));\n`);
    test(42);
    const run = await init(dir, 'claude-code');
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(json(dir, 'stopwise.config.json').tests).toEqual({ command: 'node --import ./setup.mjs --test --test-reporter=tap test/answer.test.mjs', report: { format: 'tap' } });
    const { green, red } = await greenThenRed(dir, () => test(41));
    expect(green).toBe('');
    expect(red).toEqual({ decision: 'block', reason: expect.stringMatching(/^1 test failed: the answer\. .*\n- the answer: Expected values to be strictly equal: 42 !== 41/s) });
  });

  it('reads the exit code of a test script it knows no report for: a passing run stops, a failing one blocks naming the command', async () => {
    const dir = folder('stopwise-init-script-');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'sh check.sh' } }));
    writeFileSync(join(dir, 'check.sh'), 'echo all checks pass\n');
    const run = await init(dir, 'claude-code');
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/WARNING: `npm test --silent` writes no test report/);
    const { green, red } = await greenThenRed(dir, () => writeFileSync(join(dir, 'check.sh'), 'echo "checksum mismatch" >&2\nexit 2\n'));
    expect(green).toBe('');
    expect(red).toEqual({ decision: 'block', reason: expect.stringMatching(/^1 test failed: check:npm test --silent\. .*\n- check:npm test --silent: exit code 2: checksum mismatch$/s) });
  });
});
