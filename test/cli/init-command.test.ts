import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { stopHookCommand } from '../../src/hosts/install-stop-hook.js';
import { parseStopwiseConfig } from '../../src/hosts/stopwise-config.js';
import { runCli } from './run-cli.js';
import { Ajv2020 } from 'ajv/dist/2020.js';

const schemaOf = (name: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../../schemas', name), 'utf8')) as object;
const ajv = new Ajv2020({ allErrors: true, strict: true });
ajv.addSchema(schemaOf('stop-policy.schema.json'));
const validateConfig = ajv.compile(schemaOf('stopwise-config.schema.json'));

const ENV = { ...process.env, NODE_TEST_CONTEXT: undefined };

/** The tool hook entries init writes for Claude Code by default, with the command given. */
function claudeToolHooks(hook: Record<string, unknown>): Record<string, unknown> {
  const matcher = 'Bash|Edit|MultiEdit|Write|NotebookEdit|mcp__.*';
  const entry = { matcher, hooks: [{ ...hook, timeout: 30 }] };
  return { PreToolUse: [entry], PostToolUse: [entry], PostToolUseFailure: [entry] };
}
const init = (dir: string, ...args: string[]) => runCli(['init', ...args], { cwd: dir, env: ENV });
const read = (dir: string, path: string) => readFileSync(join(dir, path), 'utf8');
const json = (dir: string, path: string) => JSON.parse(read(dir, path)) as Record<string, unknown>;

function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files[path.slice(dir.length + 1)] = readFileSync(path, 'utf8');
    }
  }
  return files;
}

describe('stopwise init', () => {
  it('asks for a test command in an empty project when it cannot ask (no terminal): exit 2 with a hint', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-'));
    const run = await init(dir, 'claude-code');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no test command found in package.json; pass one with --test-command/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('sets up an empty project with the given test command', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-'));
    const run = await init(dir, 'claude-code', '--test-command', 'make test');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/stopwise.config.json: written, tests run with `make test` \(--test-command\); evidence: the exit code alone \(see the warning\)/);
    expect(run.stderr).toMatch(/^stopwise init: WARNING: `make test` writes no test report stopwise can read, so the hook will judge the tests by its exit code alone/);
    const config = json(dir, 'stopwise.config.json');
    expect(config).toEqual({
      $schema: 'https://unpkg.com/stopwise/schemas/stopwise-config.schema.json',
      task: '',
      acceptance: [],
      tests: { command: 'make test', report: { format: 'exit-code' } },
      judge: { client: 'none' },
      maxConsecutiveBlocks: 1,
    });
    expect(parseStopwiseConfig(config).ok).toBe(true);
    // The schema it names is the one the package ships, and the file passes it.
    expect(validateConfig(config), JSON.stringify(validateConfig.errors)).toBe(true);
    expect(json(dir, '.claude/settings.json')).toEqual({
      hooks: {
        Stop: [{ hooks: [{ type: 'command', command: stopHookCommand('claude-code'), timeout: 330 }] }],
        ...claudeToolHooks({ type: 'command', command: stopHookCommand('claude-code') }),
      },
    });
    expect(run.stdout).toMatch(/tool guard added on PreToolUse, PostToolUse, PostToolUseFailure \(tools matching Bash\|Edit\|MultiEdit\|Write\|NotebookEdit\|mcp__\.\*\)/);
    expect(read(dir, '.gitignore')).toBe('.stopwise/\n');
    expect(run.stdout).toMatch(/stopwise is not a dependency in package.json: the hook never downloads it, so until it is installed \(`npm i -D stopwise`\) every stop goes ahead unchecked/);
  });

  it('detects vitest from package.json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'vitest' }, devDependencies: { vitest: '^4.1.0', stopwise: '^0.1.0' } }));
    const run = await init(dir, 'codex');
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/not a dependency/);
    expect(json(dir, 'stopwise.config.json').tests).toEqual({
      command: 'npx',
      args: ['vitest', 'run', '--reporter=json', '--outputFile=.stopwise/test-report.json'],
      report: { format: 'vitest-json', path: '.stopwise/test-report.json' },
    });
    const tool = { matcher: 'Bash', hooks: [{ type: 'command', command: stopHookCommand('codex'), timeout: 30 }] };
    expect(json(dir, '.codex/hooks.json')).toEqual({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: stopHookCommand('codex'), timeout: 330 }] }], PreToolUse: [tool], PostToolUse: [tool] },
    });
    expect(run.stdout).toMatch(/codex_hooks = true/);
  });

  it('keeps existing hooks and settings, and an existing configuration', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-'));
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
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/stopwise.config.json: already there, left as it is/);
    expect(JSON.parse(read(dir, 'stopwise.config.json'))).toEqual(config);
    const merged = json(dir, '.claude/settings.json') as typeof settings;
    expect(merged.permissions).toEqual(settings.permissions);
    const ours = claudeToolHooks({ type: 'command', command: stopHookCommand('claude-code') });
    expect(merged.hooks.PostToolUse).toEqual([...settings.hooks.PostToolUse, ...(ours.PostToolUse as unknown[])]);
    expect(merged.hooks).toMatchObject({ PreToolUse: ours.PreToolUse, PostToolUseFailure: ours.PostToolUseFailure });
    expect(merged.hooks.Stop).toEqual([
      settings.hooks.Stop[0],
      { hooks: [{ type: 'command', command: stopHookCommand('claude-code'), timeout: 150 }] },
    ]);
    expect(read(dir, '.gitignore')).toBe('node_modules\ndist\n.stopwise/\n');
  });

  it('changes nothing when run twice', async () => {
    for (const host of ['claude-code', 'codex', 'cursor']) {
      const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-'));
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'node --test' } }));
      expect((await init(dir, host)).code).toBe(0);
      const first = snapshot(dir);
      const again = await init(dir, host);
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/already there, left as it is[\s\S]*already there, left as it is[\s\S]*already ignores/);
      expect(snapshot(dir)).toEqual(first);
    }
  });

  it('writes the Cursor hooks file next to existing Cursor hooks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-'));
    mkdirSync(join(dir, '.cursor'));
    writeFileSync(join(dir, '.cursor/hooks.json'), JSON.stringify({ version: 1, hooks: { afterFileEdit: [{ command: './format.sh' }] } }));
    expect((await init(dir, 'cursor', '--test-command', 'pytest -q')).code).toBe(0);
    expect(json(dir, '.cursor/hooks.json')).toEqual({
      version: 1,
      hooks: {
        afterFileEdit: [{ command: './format.sh' }, { command: stopHookCommand('cursor'), timeout: 30 }],
        stop: [{ command: stopHookCommand('cursor'), timeout: 330, loop_limit: 5 }],
        beforeShellExecution: [{ command: stopHookCommand('cursor'), timeout: 30 }],
        afterShellExecution: [{ command: stopHookCommand('cursor'), timeout: 30 }],
        beforeMCPExecution: [{ command: stopHookCommand('cursor'), timeout: 30 }],
        afterMCPExecution: [{ command: stopHookCommand('cursor'), timeout: 30 }],
      },
    });
    expect(json(dir, 'stopwise.config.json').tests).toEqual({ command: 'pytest -q --junitxml=.stopwise/junit.xml', report: { format: 'junit', path: '.stopwise/junit.xml' } });
  });

  it('refuses to touch settings it cannot read, and exits 1 without a stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-'));
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude/settings.json'), '{ "hooks": ');
    const run = await init(dir, 'claude-code', '--test-command', 'npm test');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/settings.json: not valid JSON .*not touching it/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(read(dir, '.claude/settings.json')).toBe('{ "hooks": ');
    writeFileSync(join(dir, '.claude/settings.json'), JSON.stringify({ hooks: { Stop: 'npx stopwise' } }));
    expect((await init(dir, 'claude-code')).stderr).toMatch(/"hooks.Stop" must be an array/);
  });

  it('writes nothing when the host settings are malformed, and sets everything up once they are fixed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-'));
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude/settings.json'), '{ "hooks": ');
    const before = snapshot(dir);
    const run = await init(dir, 'claude-code', '--test-command', 'node --test');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/settings.json: not valid JSON .*not touching it, and nothing was written/);
    expect(snapshot(dir)).toEqual(before);
    writeFileSync(join(dir, '.claude/settings.json'), '{}');
    const again = await init(dir, 'claude-code', '--test-command', 'node --test');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/stopwise.config.json: written/);
    expect(again.stdout).not.toMatch(/already there/);
  });

  it('puts back every file it wrote when a later write fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'node --test' } }));
    mkdirSync(join(dir, '.codex'));
    writeFileSync(join(dir, '.codex/hooks.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: './notify.sh' }] }] } }));
    // a .gitignore that reads as absent but cannot be written: a link into a folder that does not exist
    symlinkSync(join(dir, 'no-such-folder/ignore'), join(dir, '.gitignore'));
    const before = snapshot(dir);
    const run = await init(dir, 'codex');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/\.gitignore: could not be written \(no such file or folder\); every file is left as it was/);
    expect(run.stdout).toBe('');
    expect(snapshot(dir)).toEqual(before);
    expect(existsSync(join(dir, 'stopwise.config.json'))).toBe(false);
    const fresh = mkdtempSync(join(tmpdir(), 'stopwise-init-'));
    symlinkSync(join(fresh, 'no-such-folder/ignore'), join(fresh, '.gitignore'));
    expect((await init(fresh, 'cursor', '--test-command', 'node --test')).code).toBe(1);
    expect(readdirSync(fresh)).toEqual(['.gitignore']);
  });

  it('writes the exec form for Claude Code with --exec, once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-'));
    const run = await init(dir, 'claude-code', '--exec', '--test-command', 'node --test');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/stop hook added \(exec form: npx --offline --no-install stopwise hook claude-code; timeout \d+ s\)/);
    const entry = { type: 'command', command: 'npx', args: ['--offline', '--no-install', 'stopwise', 'hook', 'claude-code'], timeout: 330 };
    const { timeout: _stop, ...exec } = entry;
    expect(json(dir, '.claude/settings.json')).toEqual({ hooks: { Stop: [{ hooks: [entry] }], ...claudeToolHooks(exec) } });
    const first = snapshot(dir);
    expect((await init(dir, 'claude-code', '--exec')).code).toBe(0);
    expect((await init(dir, 'claude-code')).code).toBe(0);
    expect(snapshot(dir)).toEqual(first);
  });

  it('replaces an installed hook whose npx could download stopwise', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-'));
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude/settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'npx stopwise hook claude-code', timeout: 60 }] }] } }));
    const run = await init(dir, 'claude-code', '--test-command', 'node --test');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/settings.json: stop hook replaced \(the earlier command let npx download stopwise at run time\)/);
    expect(json(dir, '.claude/settings.json').hooks).toMatchObject({ Stop: [{ hooks: [{ type: 'command', command: stopHookCommand('claude-code'), timeout: 330 }] }] });
  });

  it('adds the stop hook alone with --no-tool-guard, every tool with --guard-all-tools, and the tool hooks to a stop hook already there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-'));
    expect((await init(dir, 'claude-code', '--no-tool-guard', '--test-command', 'node --test')).code).toBe(0);
    expect(Object.keys(json(dir, '.claude/settings.json').hooks as object)).toEqual(['Stop']);
    const run = await init(dir, 'claude-code', '--guard-all-tools');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/the stopwise stop hook is already there, left as it is\n.*tool guard added on PreToolUse, PostToolUse, PostToolUseFailure\n/);
    const hooks = json(dir, '.claude/settings.json').hooks as Record<string, unknown[]>;
    expect(hooks.PreToolUse).toEqual([{ hooks: [{ type: 'command', command: stopHookCommand('claude-code'), timeout: 30 }] }]);
    expect((await init(dir, 'claude-code', '--no-tool-guard', '--guard-all-tools')).code).toBe(2);
  });

  it('honours --no-tool-guard and --guard-all-tools for Copilot CLI and Gemini CLI too', async () => {
    for (const [host, file, stopEvent] of [['copilot', '.github/hooks/stopwise.json', 'agentStop'], ['gemini', '.gemini/settings.json', 'AfterAgent']] as const) {
      const bare = mkdtempSync(join(tmpdir(), 'stopwise-init-'));
      const run = await init(bare, host, '--no-tool-guard', '--test-command', 'node --test');
      expect(run.code, run.stderr).toBe(0);
      expect(Object.keys(json(bare, file).hooks as object)).toEqual([stopEvent]);
      const all = mkdtempSync(join(tmpdir(), 'stopwise-init-'));
      expect((await init(all, host, '--guard-all-tools', '--test-command', 'node --test')).code).toBe(0);
      const tools = Object.entries(json(all, file).hooks as Record<string, Record<string, unknown>[]>).filter(([event]) => event !== stopEvent);
      expect(tools.length).toBeGreaterThan(0);
      for (const [, entries] of tools) expect(entries[0]).not.toHaveProperty('matcher');
    }
  });

  it('exits 2 on a usage error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-'));
    for (const args of [[], ['windsurf'], ['codex', '--test-command', ''], ['codex', '--bogus'], ['codex', '--exec']]) {
      expect((await init(dir, ...args)).code).toBe(2);
    }
  });
});

describe('the configuration stopwise init writes, run by the hook', { timeout: 120_000 }, () => {
  const stop = (dir: string, session: string) =>
    runCli(['hook', 'claude-code'], {
      cwd: dir,
      input: JSON.stringify({ session_id: session, cwd: dir, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'Done.' }),
      env: { ...ENV, CLAUDE_PROJECT_DIR: undefined },
      timeoutMs: 90_000,
    });

  /** Runs the hook on a green suite, then on a red one, and returns both answers. */
  async function greenThenRed(dir: string, breakIt: () => void): Promise<{ green: string; red: Record<string, unknown> }> {
    const green = await stop(dir, 'green');
    expect(green.code, green.stderr).toBe(0);
    breakIt();
    const red = await stop(dir, 'red');
    expect(red.code, red.stderr).toBe(0);
    return { green: green.stdout, red: JSON.parse(red.stdout) as Record<string, unknown> };
  }

  it('keeps the flags of a node --test script, reads its TAP, and lets a passing suite stop', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-node-'));
    mkdirSync(join(dir, 'test'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', scripts: { test: 'node --import ./setup.mjs --test test/' } }));
    writeFileSync(join(dir, 'setup.mjs'), 'globalThis.answer = 42;\n');
    const test = (expected: number) =>
      writeFileSync(join(dir, 'test/answer.test.mjs'), `import test from 'node:test';\nimport assert from 'node:assert/strict';\ntest('the answer', () => assert.equal(globalThis.answer, ${expected}));\n`);
    test(42);
    const run = await init(dir, 'claude-code');
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(json(dir, 'stopwise.config.json').tests).toEqual({ command: 'node --import ./setup.mjs --test --test-reporter=tap test/', report: { format: 'tap' } });
    const { green, red } = await greenThenRed(dir, () => test(41));
    expect(green).toBe('');
    expect(red).toMatchObject({ decision: 'block', reason: expect.stringMatching(/^1 test failed: the answer\. .*\n- the answer: Expected values to be strictly equal: 42 !== 41/s) });
  });

  it('adds a TAP file beside the reporter a node --test script sets, and names the failing test', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-spec-'));
    mkdirSync(join(dir, 'test'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', scripts: { test: 'node --test --test-reporter=spec' } }));
    const test = (expected: number) =>
      writeFileSync(join(dir, 'test/answer.test.mjs'), `import test from 'node:test';\nimport assert from 'node:assert/strict';\ntest('the answer', () => assert.equal(6 * 7, ${expected}));\n`);
    test(42);
    const run = await init(dir, 'claude-code');
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(json(dir, 'stopwise.config.json').tests).toEqual({
      command: 'node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=tap --test-reporter-destination=.stopwise/test-report.tap',
      report: { format: 'tap', path: '.stopwise/test-report.tap' },
    });
    const { green, red } = await greenThenRed(dir, () => test(41));
    expect(green).toBe('');
    expect(red).toMatchObject({ decision: 'block', reason: expect.stringMatching(/^1 test failed: the answer\. /) });
  });

  it('runs a tsx --test script through npx from the project\'s own tsx, and names the failing test', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-tsx-'));
    mkdirSync(join(dir, 'test'));
    mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
    symlinkSync(join(import.meta.dirname, '../../node_modules/tsx'), join(dir, 'node_modules/tsx'), 'dir');
    symlinkSync('../tsx/dist/cli.mjs', join(dir, 'node_modules/.bin/tsx'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', scripts: { test: 'tsx --test test/answer.test.ts' } }));
    const test = (expected: number) =>
      writeFileSync(join(dir, 'test/answer.test.ts'), `import test from 'node:test';\nimport assert from 'node:assert/strict';\nconst answer: number = 6 * 7;\ntest('the typed answer', () => assert.equal(answer, ${expected}));\n`);
    test(42);
    const run = await init(dir, 'claude-code');
    expect(run.code).toBe(0);
    expect(json(dir, 'stopwise.config.json').tests).toEqual({ command: 'npx --no-install tsx --test --test-reporter=tap test/answer.test.ts', report: { format: 'tap' } });
    const { green, red } = await greenThenRed(dir, () => test(41));
    expect(green).toBe('');
    expect(red).toMatchObject({ decision: 'block', reason: expect.stringMatching(/^1 test failed: the typed answer\. /) });
  });

  it('reads the TAP of a test script behind yarn test', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-yarn-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'node --test --test-reporter tap' } }));
    const run = await init(dir, 'codex', '--test-command', 'yarn test');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(json(dir, 'stopwise.config.json').tests).toEqual({ command: 'node --test --test-reporter tap', report: { format: 'tap' } });
  });

  it('blocks a script read by its exit code whose runner ran no test, instead of letting the agent stop', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-none-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'echo building && node --test' } }));
    const run = await init(dir, 'claude-code');
    expect(run.code).toBe(0);
    expect(json(dir, 'stopwise.config.json').tests).toEqual({ command: 'npm', args: ['test', '--silent'], report: { format: 'exit-code' } });
    const none = await stop(dir, 'none');
    expect(none.code, none.stderr).toBe(0);
    expect(JSON.parse(none.stdout)).toMatchObject({ decision: 'block', reason: expect.stringMatching(/^No tests ran, run the suite/) });
  });

  it('reads the exit code of a test script it knows no report for, and lets a passing run stop', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-script-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'sh check.sh' } }));
    writeFileSync(join(dir, 'check.sh'), 'echo all checks pass\n');
    const run = await init(dir, 'claude-code');
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/WARNING: `npm test --silent` writes no test report/);
    const { green, red } = await greenThenRed(dir, () => writeFileSync(join(dir, 'check.sh'), 'echo "checksum mismatch" >&2\nexit 2\n'));
    expect(green).toBe('');
    expect(red).toEqual({
      decision: 'block',
      reason: '1 test failed: check:npm test --silent. Fix it and run the tests again before you stop.\n- check:npm test --silent: exit code 2: checksum mismatch',
    });
  });

  it.skipIf(spawnSync('python3', ['-m', 'pytest', '--version']).status !== 0)('asks pytest for a JUnit XML report and names the failing test', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stopwise-init-pytest-'));
    const test = (expected: number) => writeFileSync(join(dir, 'test_answer.py'), `def test_answer():\n    assert 6 * 7 == ${expected}\n`);
    test(42);
    const run = await init(dir, 'codex', '--test-command', 'python3 -m pytest -q -p no:cacheprovider');
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const { green, red } = await greenThenRed(dir, () => test(41));
    expect(green).toBe('');
    expect(red).toEqual({ decision: 'block', reason: '1 test failed: test_answer. Fix it and run the tests again before you stop.\n- test_answer: assert (6 * 7) == 41' });
  });
});
