import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline/promises';
import { dirname, join } from 'node:path';
import { detectTestCommand, proposeTestCommand, type DetectedTestCommand } from './detect-test-command.js';
import { hostTimeoutSeconds } from '../hosts/hook-deadline.js';
import { HOSTS } from '../hosts/host.js';
import { installHooks } from '../hosts/settings-file.js';
import { hookCommand, launcherPath, launcherScript } from '../hosts/hook-command.js';
import { CONFIG_FILE_NAME, DEFAULT_DECISION_MODEL_TIMEOUT_MS, DEFAULT_OUTCOMES_FILE, DEFAULT_TEST_TIMEOUT_MS } from '../hosts/config-file.js';
import { parseStopwiseConfig } from '../hosts/stopwise-config.js';
import { describeFsError } from '../input/describe-fs-error.js';
import { readJsonFile } from '../input/read-json-file.js';
import { CliUsageError, type CliIo } from './cli-io.js';
import { hostArgument } from './host-argument.js';
import { parseCommandLine } from './parse-command-line.js';

const HELP = `usage: stopwise init <claude-code|codex|cursor|copilot|gemini> [--test-command "COMMAND"] [--exec] [--no-tool-guard | --guard-all-tools]

Sets up the stopwise stop hook in the current project:
  - writes a starter ${CONFIG_FILE_NAME} (unless there is one), with the test
    command found in package.json, or the one given, or asked for;
  - adds the stop hook and the tool hooks (on the tools that run commands or
    change files) to .claude/settings.json, .codex/hooks.json,
    .cursor/hooks.json, .github/hooks/stopwise.json (copilot) or
    .gemini/settings.json (gemini), keeping every existing entry;
  - writes the launcher the hook command runs beside the settings file
    (stopwise.sh: the project's own stopwise, with Node, never a download);
  - adds .stopwise/ (the hook's state and the outcomes file that
    \`stopwise report\` reads) to .gitignore.
Running it again changes nothing.

options:
  --test-command COMMAND  the command that runs the tests (run in a shell); for
                          node --test, mocha, pytest, vitest and jest a report
                          option is added, any other command is judged by its
                          exit code alone (with a warning)
  --exec                  Claude Code only: write the exec form (command "npx",
                          args ["--offline", "--no-install", "stopwise",
                          "hook", "claude-code"]), spawned without a shell;
                          the default shell form starts the project's own
                          install with node, much faster than npx
  --no-tool-guard         add the stop hook only, no tool hooks (by default the
                          tool events are registered too: the guard refuses a
                          call that keeps repeating)
  --guard-all-tools       let the tool hooks see read-only tools as well (by
                          default only the tools that run commands or change
                          files, and MCP tools, to keep the cost per call low)
  -h, --help              show this help

exit codes: 0 done; 1 a file could not be read or has a shape the host does not read; 2 usage error`;

/** `stopwise init <host>`: writes the starter configuration and installs the hook. */
export async function initCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(
    argv,
    {
      'test-command': { type: 'string' },
      exec: { type: 'boolean', default: false },
      'no-tool-guard': { type: 'boolean', default: false },
      'guard-all-tools': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    HELP,
  );
  if (parsed.values.help) {
    io.stdout(`${HELP}\n`);
    return 0;
  }
  const host = hostArgument(parsed.positionals, HELP);
  const form = parsed.values.exec ? 'exec' : 'shell';
  if (form === 'exec' && host !== 'claude-code') {
    throw new CliUsageError(`--exec is for claude-code only: ${host} runs hook commands in a shell`);
  }
  const toolGuard = !parsed.values['no-tool-guard'];
  const allTools = parsed.values['guard-all-tools'];
  if (!toolGuard && allTools) throw new CliUsageError('--guard-all-tools and --no-tool-guard cannot go together');
  const given = parsed.values['test-command'];
  if (given !== undefined && given.trim() === '') throw new CliUsageError('--test-command must not be empty');

  // Every file is read and checked before any is written, and the writes go all or nothing.
  const report: string[] = [];
  const warnings: string[] = [];
  const writes: PlannedWrite[] = [];
  const configPath = join(io.cwd, CONFIG_FILE_NAME);
  const existingConfig = await readJsonFile(configPath);
  if (existingConfig.kind === 'invalid') {
    io.stderr(`stopwise init: ${configPath}: ${existingConfig.message}; nothing was written\n`);
    return 1;
  }
  let timeouts = { tests: { timeoutMs: DEFAULT_TEST_TIMEOUT_MS }, decisionModel: { timeoutMs: DEFAULT_DECISION_MODEL_TIMEOUT_MS } };
  if (existingConfig.kind === 'found') {
    const valid = parseStopwiseConfig(existingConfig.value);
    if (valid.ok) timeouts = valid.config;
    report.push(`${CONFIG_FILE_NAME}: already there, left as it is${valid.ok ? '' : ` (it is not valid: ${valid.message.split('\n').join('; ')})`}`);
  }

  const description = HOSTS[host];
  const settingsFile = description.settingsFile;
  const settingsPath = join(io.cwd, settingsFile);
  const settings = await readJsonFile(settingsPath);
  if (settings.kind === 'invalid') {
    io.stderr(`stopwise init: ${settingsPath}: ${settings.message}; not touching it, and nothing was written\n`);
    return 1;
  }
  const timeoutSeconds = hostTimeoutSeconds(timeouts);
  const tools = !toolGuard ? 'none' : allTools ? 'all' : 'matched';
  const merged = installHooks(description, settings.kind === 'found' ? settings.value : undefined, { timeoutSeconds, tools, exec: form === 'exec' });
  if (!merged.ok) {
    io.stderr(`stopwise init: ${merged.message}; not touching it, and nothing was written\n`);
    return 1;
  }

  if (existingConfig.kind === 'missing') {
    const packageJson = await readPackageJson(io.cwd);
    const detected = given === undefined ? detectTestCommand(packageJson) : proposeTestCommand(given, '--test-command', packageJson);
    const tests = detected ?? (await askForTestCommand(io, packageJson));
    if (tests === undefined) {
      io.stderr(`stopwise init: no test command found in package.json; pass one with --test-command "npm test"\n`);
      return 2;
    }
    writes.push({ path: configPath, text: `${JSON.stringify(starterConfig(tests), null, 2)}\n` });
    report.push(
      `${CONFIG_FILE_NAME}: written, tests run with \`${[tests.tests.command, ...(tests.tests.args ?? [])].join(' ')}\` (${tests.source}); ${describeEvidence(tests)}`,
    );
    if (tests.warning !== undefined) warnings.push(`stopwise init: WARNING: ${tests.warning}\n`);
  }

  if (merged.changed) writes.push({ path: settingsPath, text: `${JSON.stringify(merged.value, null, 2)}\n` });
  const stopAdded = merged.added.includes(description.events.stop);
  if (stopAdded || merged.replaced) {
    const what = merged.replaced ? 'stopwise hooks updated to the current command' : 'stop hook added';
    report.push(
      form === 'exec'
        ? `${settingsFile}: ${what} (exec form: npx --offline --no-install stopwise hook ${host}; timeout ${timeoutSeconds} s)`
        : `${settingsFile}: ${what} (\`${hookCommand(description)}\`; timeout ${timeoutSeconds} s)`,
    );
    if (!(await isLocalDependency(io.cwd))) {
      report.push(
        'stopwise is not a dependency in package.json: the hook never downloads it, so until it is installed (`npm i -D stopwise`) every stop goes ahead unchecked with a message saying so.',
      );
    }
  } else {
    report.push(`${settingsFile}: the stopwise stop hook is already there, left as it is`);
  }
  const toolEvents = merged.added.filter((event) => event !== description.events.stop);
  if (toolEvents.length > 0) {
    const matcher = allTools ? undefined : description.toolMatcher;
    report.push(`${settingsFile}: tool guard added on ${toolEvents.join(', ')}${matcher === undefined ? '' : ` (tools matching ${matcher})`}`);
  }

  if (form !== 'exec') {
    const launcher = launcherPath(description);
    const text = launcherScript(description);
    const current = await readFile(join(io.cwd, launcher), 'utf8').catch(() => undefined);
    if (current !== text) {
      writes.push({ path: join(io.cwd, launcher), text });
      report.push(`${launcher}: ${current === undefined ? 'written' : 'rewritten'} (the hook command runs it: the project's own stopwise, with Node, never a download)`);
    }
  }

  const ignore = await planIgnoreStateFolder(io.cwd);
  if (ignore.write !== undefined) writes.push(ignore.write);
  report.push(ignore.line);

  const failure = await writeAllOrNothing(writes);
  if (failure !== undefined) {
    io.stderr(`stopwise init: ${failure.path}: could not be written (${failure.message}); every file is left as it was\n`);
    return 1;
  }
  for (const warning of warnings) io.stderr(warning);
  io.stdout(`${report.join('\n')}\n${description.note}\n`);
  return 0;
}

/** A file `init` writes, with its whole new text. */
interface PlannedWrite {
  readonly path: string;
  readonly text: string;
}

/**
 * Writes each file in turn; when one fails, the ones already written get
 * their old text back (or are removed, with any folder made for them), and
 * the failure is returned.
 */
async function writeAllOrNothing(writes: readonly PlannedWrite[]): Promise<{ path: string; message: string } | undefined> {
  const done: { path: string; previous: string | undefined; madeDir: string | undefined }[] = [];
  for (const write of writes) {
    let previous: string | undefined;
    let madeDir: string | undefined;
    try {
      previous = await readFile(write.path, 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      madeDir = await mkdir(dirname(write.path), { recursive: true });
      await writeFile(write.path, write.text);
      done.push({ path: write.path, previous, madeDir });
    } catch (error) {
      if (madeDir !== undefined) await rm(madeDir, { recursive: true, force: true }).catch(() => undefined);
      for (const undo of done.reverse()) {
        await (undo.previous === undefined ? rm(undo.path, { force: true }) : writeFile(undo.path, undo.previous)).catch(() => undefined);
        if (undo.madeDir !== undefined) await rm(undo.madeDir, { recursive: true, force: true }).catch(() => undefined);
      }
      return { path: write.path, message: describeFsError(error) };
    }
  }
  return undefined;
}

function describeEvidence(detected: DetectedTestCommand): string {
  const report = detected.tests.report;
  if (report === undefined) return 'evidence: TAP on stdout and the exit code';
  if (report.format === 'exit-code') return 'evidence: the exit code alone (see the warning)';
  return `evidence: the ${report.format} report ${report.path === undefined ? 'on stdout' : `in ${report.path}`}`;
}

/** Where editors find the configuration's JSON Schema: the copy the project installed, never fetched from elsewhere. */
const CONFIG_SCHEMA_URL = './node_modules/stopwise/schemas/stopwise-config.schema.json';

function starterConfig(detected: DetectedTestCommand): Record<string, unknown> {
  return {
    $schema: CONFIG_SCHEMA_URL,
    task: '',
    acceptance: [],
    tests: detected.tests,
    decisionModel: { client: 'none' },
    maxConsecutiveBlocks: 1,
    outcomesFile: DEFAULT_OUTCOMES_FILE,
  };
}

async function isLocalDependency(cwd: string): Promise<boolean> {
  const pkg = await readJsonFile(join(cwd, 'package.json'));
  if (pkg.kind !== 'found' || typeof pkg.value !== 'object' || pkg.value === null) return false;
  const record = pkg.value as Record<string, unknown>;
  return ['dependencies', 'devDependencies'].some((field) => {
    const deps = record[field];
    return typeof deps === 'object' && deps !== null && Object.hasOwn(deps, 'stopwise');
  });
}

async function readPackageJson(cwd: string): Promise<unknown> {
  const pkg = await readJsonFile(join(cwd, 'package.json'));
  return pkg.kind === 'found' ? pkg.value : undefined;
}

async function askForTestCommand(io: CliIo, packageJson: unknown): Promise<DetectedTestCommand | undefined> {
  if (!process.stdin.isTTY) return undefined;
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = (await prompt.question('No test command found in package.json. Which command runs the tests? ')).trim();
    return answer === '' ? undefined : proposeTestCommand(answer, 'as answered', packageJson);
  } finally {
    prompt.close();
    io.stdout('');
  }
}

async function planIgnoreStateFolder(cwd: string): Promise<{ readonly write?: PlannedWrite; readonly line: string }> {
  const path = join(cwd, '.gitignore');
  let text = '';
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return { line: `.gitignore: cannot be read (${(error as Error).message}); add .stopwise/ to it yourself` };
  }
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  if (lines.some((line) => line === '.stopwise' || line === '.stopwise/' || line === '/.stopwise' || line === '/.stopwise/')) {
    return { line: '.gitignore: already ignores .stopwise/' };
  }
  const separator = text === '' || text.endsWith('\n') ? '' : '\n';
  return {
    write: { path, text: `${text}${separator}.stopwise/\n` },
    line: '.gitignore: .stopwise/ added (the hook state and test reports stay out of the tree)',
  };
}

