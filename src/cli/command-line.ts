import { readFileSync } from 'node:fs';
import type { CliIo } from './cli-io.js';
import { runProgram } from './run-program.js';

type Command = (argv: readonly string[], io: CliIo) => Promise<number>;

// `hook` is listed for the usage only: main.ts hands it to its own bundle before this module loads.
const COMMANDS: Readonly<Record<string, { summary: string; load?: () => Promise<Command> }>> = {
  replay: {
    summary: 'replay recorded agent runs through a stop policy',
    load: async () => (await import('./replay-command.js')).replayCommand,
  },
  explain: {
    summary: 'decide events with a stop policy document and say why each rule fired or did not',
    load: async () => (await import('./explain-command.js')).explainCommand,
  },
  calibrate: {
    summary: 'choose stop thresholds from labelled cases, with a guarantee',
    load: async () => (await import('./calibrate-command.js')).calibrateCommand,
  },
  'calibrate-stall': {
    summary: 'choose stall detector thresholds from labelled agent runs, with a bound on false alarms',
    load: async () => (await import('./calibrate-stall-command.js')).calibrateStallCommand,
  },
  report: {
    summary: 'report on recorded run outcomes: exits per task type, limit-stop alerts, the review queue (text, JSON or HTML)',
    load: async () => (await import('./report-command.js')).reportCommand,
  },
  hook: {
    summary: 'the stop hook and tool guard for Claude Code, Codex, Cursor, Copilot or Gemini (reads the host JSON on stdin)',
  },
  init: {
    summary: 'set up the stop hook, the tool guard and a starter stopwise.config.json in a project',
    load: async () => (await import('./init-command.js')).initCommand,
  },
  doctor: {
    summary: 'try the hook setup (configuration, host settings, tests, decision model) without an agent session',
    load: async () => (await import('./doctor-command.js')).doctorCommand,
  },
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, { summary }]) => `  ${name.padEnd(width)} ${summary}`);
  return [
    'usage: stopwise <command> [options]',
    '',
    'commands:',
    ...lines,
    '',
    'options:',
    '  -v, --version  print the version',
    '  -h, --help     show this help',
    '',
    'Run `stopwise <command> --help` for the options of a command.',
  ].join('\n');
}

/** The version in the package's own package.json, two folders up from both src/cli and dist/bin. */
function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof manifest.version === 'string' ? manifest.version : 'unknown';
}

/**
 * Runs `stopwise <argv>`: each command is imported only when it runs, so
 * that one command does not pay for the others.
 */
export function runCommandLine(argv: readonly string[]): Promise<void> {
  return runProgram(argv[0] === undefined ? 'stopwise' : `stopwise ${argv[0]}`, (io) => dispatch(argv, io));
}

async function dispatch(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(`${usage()}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(`${packageVersion()}\n`);
    return 0;
  }
  const load = COMMANDS[name]?.load;
  if (load === undefined) {
    io.stderr(`stopwise: unknown command "${name}"\n\n${usage()}\n`);
    return 2;
  }
  return (await load())(rest, io);
}
