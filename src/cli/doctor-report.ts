import type { DecisionModelClientName } from '../decision-model/decision-model-clients.js';
import type { HookHost } from '../hosts/host.js';

/** How one line of `stopwise doctor` came out; only `problem` makes the setup unsound. */
export type DoctorStatus = 'ok' | 'warning' | 'problem' | 'skipped';

/** One line of the report. */
export interface DoctorLine {
  readonly status: DoctorStatus;
  readonly text: string;
}

/** What every check has: its worst status and its lines. */
export interface DoctorCheck {
  readonly status: DoctorStatus;
  readonly lines: readonly DoctorLine[];
}

/** The configuration file, where it was found. */
export interface ConfigCheck extends DoctorCheck {
  readonly path?: string;
}

/** One host's settings file. */
export interface HostSettingsEntry {
  readonly host: HookHost;
  readonly file: string;
  readonly registered: boolean;
  /** The `timeout` the entry sets, in seconds, when it sets a valid one. */
  readonly timeoutSeconds?: number;
  /** The hook's deadline, in seconds. */
  readonly deadlineSeconds: number;
}

/** The host settings files checked. */
export interface HostsCheck extends DoctorCheck {
  readonly hosts: readonly HostSettingsEntry[];
}

/** The one run of the test command. */
export interface TestsCheck extends DoctorCheck {
  readonly command?: string;
  /** The reader of the result: a report format, or `exit-code`. */
  readonly reader?: 'junit' | 'tap' | 'vitest-json' | 'jest-json' | 'exit-code';
  /** Where the reader read: `stdout`, the report file, or `null` for the exit code alone. */
  readonly source?: string | null;
  readonly ran?: number;
  readonly failed?: number;
  readonly skipped?: number;
  /** The first few failing tests. */
  readonly failing?: readonly string[];
  readonly durationMs?: number;
}

/** The decision model and the one request sent to it. */
export interface DecisionModelCheck extends DoctorCheck {
  readonly client?: 'none' | DecisionModelClientName;
  readonly baseURL?: string;
  readonly model?: string;
  /** The environment variable the key is read from (never the key). */
  readonly apiKeyEnv?: string;
  readonly apiKeySet?: boolean;
  /** `evaluate` calls made: 0 or 1 (one HTTP request for System One, one per question for an OpenAI-compatible server). */
  readonly evaluations?: number;
  /** The `DecisionModelError` kind when the model could not be asked. */
  readonly errorKind?: string;
  /** Its answers to the green sample. */
  readonly probabilities?: Readonly<Record<string, number>>;
  readonly modelSaysDone?: boolean;
}

/** One sample answer as the hook would print it. */
export interface SampleAnswerEntry {
  readonly kind: 'block' | 'handoff' | 'allow';
  /** What the hook prints on stdout (empty: nothing, the stop goes ahead). */
  readonly stdout: string;
  /** The line for the person of a hand-off (also on the hook's stderr). */
  readonly systemMessage?: string;
}

/** The answers to the three sample stops, for one host. */
export interface HostSamples {
  readonly host: HookHost;
  readonly red: SampleAnswerEntry;
  readonly green: SampleAnswerEntry;
  readonly noTests: SampleAnswerEntry;
}

/** The sample answers, for each host checked. */
export interface SamplesCheck extends DoctorCheck {
  readonly hosts: readonly HostSamples[];
}

/** The whole report, as `stopwise doctor --json` prints it. */
export interface DoctorReport {
  /** True when no line is a problem. */
  readonly ok: boolean;
  readonly problems: readonly string[];
  readonly warnings: readonly string[];
  readonly checks: {
    readonly config: ConfigCheck;
    readonly hosts: HostsCheck;
    readonly tests: TestsCheck;
    readonly decisionModel: DecisionModelCheck;
    readonly samples: SamplesCheck;
  };
}

const RANK: Readonly<Record<DoctorStatus, number>> = { skipped: 0, ok: 1, warning: 2, problem: 3 };

/** The worst status of some lines (`skipped` for none). */
export function worstStatus(lines: readonly DoctorLine[]): DoctorStatus {
  return lines.reduce<DoctorStatus>((worst, line) => (RANK[line.status] > RANK[worst] ? line.status : worst), 'skipped');
}

/** The report from its checks: `ok`, and every problem and warning line in order. */
export function doctorReport(checks: DoctorReport['checks']): DoctorReport {
  const lines = [checks.config, checks.hosts, checks.tests, checks.decisionModel, checks.samples].flatMap((check) => check.lines);
  const problems = lines.filter((line) => line.status === 'problem').map((line) => line.text);
  const warnings = lines.filter((line) => line.status === 'warning').map((line) => line.text);
  return { ok: problems.length === 0, problems, warnings, checks };
}

/** The report for a person: each check with its lines, the sample answers, then the verdict with one line per problem. */
export function formatDoctorReport(report: DoctorReport): string {
  const out: string[] = [];
  const section = (title: string, check: DoctorCheck) => {
    out.push(title, ...check.lines.map((line) => `  ${line.status.padEnd(8)} ${line.text}`));
  };
  section('configuration', report.checks.config);
  section('host settings', report.checks.hosts);
  section('tests', report.checks.tests);
  section('decision model', report.checks.decisionModel);
  const samples = report.checks.samples;
  if (samples.hosts.length === 0) section('sample answers', samples);
  for (const entry of samples.hosts) {
    out.push(`sample answers (${entry.host}, the first stop of a session)`, ...samples.lines.map((line) => `  ${line.status.padEnd(8)} ${line.text}`));
    for (const [label, answer] of [['red', entry.red], ['green', entry.green], ['no tests', entry.noTests]] as const) {
      const shown = answer.stdout === '' ? '(no output: the stop goes ahead)' : answer.stdout;
      out.push(`  ${label.padEnd(9)}${answer.kind.padEnd(8)} ${shown}`);
      if (answer.systemMessage !== undefined && !answer.stdout.includes('systemMessage')) out.push(`  ${''.padEnd(17)} stderr: ${answer.systemMessage}`);
    }
  }
  out.push('');
  if (report.ok) {
    const warned = report.warnings.length === 0 ? '' : ` (${report.warnings.length} warning${report.warnings.length === 1 ? '' : 's'})`;
    out.push(`the setup is sound${warned}`);
  } else {
    out.push(`${report.problems.length} problem${report.problems.length === 1 ? '' : 's'}:`, ...report.problems.map((problem) => `  - ${problem}`));
  }
  return `${out.join('\n')}\n`;
}
