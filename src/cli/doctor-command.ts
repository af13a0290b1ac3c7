import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { formatDuration } from '../core/format-duration.js';
import type { TestEvidence } from '../core/test-evidence.js';
import { hookCompletionInput, createHookClient } from '../hosts/hook-decision-model.js';
import { hostTimeoutSeconds, stopHookDeadlineMs, type HookTimeouts } from '../hosts/hook-deadline.js';
import { launcherPath } from '../hosts/hook-command.js';
import { HOOK_HOSTS, HOSTS, type HookHost } from '../hosts/host.js';
import { projectTestRunner, testRunEvidence } from '../hosts/project-tests.js';
import { checkSettings, describeSettings } from '../hosts/settings-file.js';
import { CONFIG_FILE_NAME, DEFAULT_DECISION_MODEL_TIMEOUT_MS, DEFAULT_TEST_TIMEOUT_MS } from '../hosts/config-file.js';
import { loadStopwiseConfig, type StopwiseConfig } from '../hosts/stopwise-config.js';
import { SAMPLE_EVIDENCE, SAMPLE_LAST_MESSAGE, sampleStopAnswer, type ModelAnswer } from './sample-stop-answers.js';
import { readJsonFile } from '../input/read-json-file.js';
import { isDecisionModelError } from '../decision-model/decision-model-error.js';
import { redactSecrets } from '../decision-model/http/redact-secrets.js';
import type { CliIo } from './cli-io.js';
import {
  doctorReport,
  formatDoctorReport,
  worstStatus,
  type ConfigCheck,
  type DecisionModelCheck,
  type DoctorLine,
  type HostSamples,
  type HostSettingsEntry,
  type HostsCheck,
  type SampleAnswerEntry,
  type SamplesCheck,
  type TestsCheck,
} from './doctor-report.js';
import { optionalHostArgument } from './host-argument.js';
import { parseCommandLine } from './parse-command-line.js';

const HELP = `usage: stopwise doctor [claude-code|codex|cursor|copilot|gemini] [--json]

Tries the stop hook's setup in the current project without an agent session,
and writes nothing to the project:
  - validates ${CONFIG_FILE_NAME} (found as the hook finds it: here or in a
    parent folder), naming every problem;
  - checks that the host's settings file registers the stopwise stop hook
    in the form init writes, with a timeout above the hook's deadline, that
    the launcher it runs is there, and which tool events the tool guard sees;
    without a host, every host whose settings file exists;
  - runs the test command once and shows the evidence it gave;
  - asks the decision model once, if one is configured, to see that it
    answers: the hook's completion check of the green sample (the key is
    never printed, only the name of its variable and whether it is set);
  - prints what the hook would answer to a stop with failing tests (red),
    passing tests (green) and no tests.

options:
  --json      print the report as JSON: { ok, problems, warnings, checks }
  -h, --help  show this help

exit codes: 0 the setup is sound (warnings aside); 1 a problem was found (one
line each); 2 usage error`;

const DEFAULT_TIMEOUTS: HookTimeouts = { tests: { timeoutMs: DEFAULT_TEST_TIMEOUT_MS }, decisionModel: { timeoutMs: DEFAULT_DECISION_MODEL_TIMEOUT_MS } };
/** Failing tests named at most in the report. */
const FAILING_SHOWN = 5;

/** `stopwise doctor [host]`: checks a project's stop hook setup and previews the hook's answers. */
export async function doctorCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(
    argv,
    { json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
    HELP,
  );
  if (parsed.values.help) {
    io.stdout(`${HELP}\n`);
    return 0;
  }
  const host = optionalHostArgument(parsed.positionals, HELP);
  const env: NodeJS.ProcessEnv = { ...(io.env ?? process.env) };

  const loaded = await loadStopwiseConfig([io.cwd]);
  const config = loaded.ok ? loaded.config : undefined;
  const projectDir = loaded.ok ? loaded.projectDir : loaded.path === undefined ? io.cwd : dirname(loaded.path);
  const configCheck = checkConfig(loaded, io.cwd);
  const hosts = await checkHosts(host, projectDir, config);
  const tests = config === undefined ? skipped('the tests were not run: they need a valid configuration') : await checkTests(config, projectDir, env);
  const model = config === undefined ? { check: undefined, report: skipped('the decision model was not asked: it needs a valid configuration') } : await checkDecisionModel(config, env);
  const sampleHosts = hosts.hosts.length > 0 ? hosts.hosts.map((entry) => entry.host) : (['claude-code'] as const);
  const samples = config === undefined ? { ...skipped('no sample answers: they need a valid configuration'), hosts: [] } : await sampleAnswers(sampleHosts, config, projectDir, model.check);

  const report = doctorReport({ config: configCheck, hosts, tests, decisionModel: model.report, samples });
  const text = parsed.values.json ? `${JSON.stringify(report, null, 2)}\n` : formatDoctorReport(report);
  io.stdout(redactSecrets(text, secretsIn(env, config)));
  return report.ok ? 0 : 1;
}

function skipped(text: string): { status: 'skipped'; lines: DoctorLine[] } {
  return { status: 'skipped', lines: [{ status: 'skipped', text }] };
}

function check<T extends object>(lines: DoctorLine[], details: T): T & { status: ReturnType<typeof worstStatus>; lines: DoctorLine[] } {
  return { status: worstStatus(lines), lines, ...details };
}

function checkConfig(loaded: Awaited<ReturnType<typeof loadStopwiseConfig>>, cwd: string): ConfigCheck {
  if (loaded.ok) {
    const where = relative(cwd, loaded.projectDir);
    return check([{ status: 'ok', text: `${CONFIG_FILE_NAME} is valid${where === '' ? '' : ` (in ${where})`}` }], { path: loaded.path });
  }
  if (loaded.kind === 'missing') {
    return check([{ status: 'problem', text: `${loaded.message}; \`stopwise init <host>\` writes one` }], {});
  }
  const path = loaded.path;
  const lines = loaded.message
    .split('\n')
    .map((line) => (path !== undefined && line.startsWith(`${path}: `) ? line.slice(path.length + 2) : line))
    .map((line): DoctorLine => ({ status: 'problem', text: `${CONFIG_FILE_NAME}: ${line}` }));
  return check(lines, path === undefined ? {} : { path });
}

async function checkHosts(host: HookHost | undefined, projectDir: string, config: StopwiseConfig | undefined): Promise<HostsCheck> {
  const timeouts = config ?? DEFAULT_TIMEOUTS;
  const deadlineMs = stopHookDeadlineMs(timeouts);
  const recommended = hostTimeoutSeconds(timeouts);
  const files = await Promise.all(HOOK_HOSTS.map(async (name) => ({ host: name, file: await readJsonFile(join(projectDir, HOSTS[name].settingsFile)) })));
  const chosen = host === undefined ? files.filter((entry) => entry.file.kind !== 'missing') : files.filter((entry) => entry.host === host);
  if (chosen.length === 0) {
    const names = HOOK_HOSTS.map((name) => HOSTS[name].settingsFile).join(', ');
    return check([{ status: 'problem', text: `no host is registered: none of ${names} is in the project; \`stopwise init <host>\` sets one up` }], { hosts: [] });
  }
  const lines: DoctorLine[] = [];
  const hosts: HostSettingsEntry[] = [];
  for (const { host: name, file } of chosen) {
    const description = HOSTS[name];
    const settings = checkSettings(description, file, deadlineMs, existsSync(join(projectDir, launcherPath(description))));
    const registered = settings.kind === 'read' && settings.stop.count > 0;
    lines.push(...describeSettings(description, settings, deadlineMs, recommended, config === undefined));
    const timeout = settings.kind === 'read' ? settings.stop.timeout : undefined;
    const seconds = timeout !== undefined && (timeout.kind === 'enough' || timeout.kind === 'too_low') ? timeout.seconds : undefined;
    hosts.push({ host: name, file: description.settingsFile, registered, ...(seconds === undefined ? {} : { timeoutSeconds: seconds }), deadlineSeconds: Math.ceil(deadlineMs / 1000) });
  }
  return check(lines, { hosts });
}

async function checkTests(config: StopwiseConfig, projectDir: string, env: NodeJS.ProcessEnv): Promise<TestsCheck> {
  const report = config.tests.report;
  const reader = report?.format ?? 'tap';
  const source = reader === 'exit-code' ? null : (report?.path ?? 'stdout');
  const readBy = reader === 'exit-code' ? 'the exit code alone' : `${reader} from ${source === 'stdout' ? 'stdout' : source}`;
  const run = await projectTestRunner.run(config.tests, { cwd: projectDir, env });
  const given = [config.tests.command, ...(config.tests.args ?? [])].join(' ');
  if (run.outcome === 'timeout') {
    return check([{ status: 'problem', text: `tests: \`${given}\` did not finish within ${formatDuration(run.timeoutMs)} (tests.timeoutMs) and was stopped` }], {
      command: given,
      reader,
      source,
    });
  }
  if (run.outcome === 'not_started') {
    return check([{ status: 'problem', text: `tests: \`${run.command}\` could not start (${run.message}); fix tests.command` }], {
      command: run.command,
      reader,
      source,
    });
  }
  const evidence: TestEvidence = testRunEvidence(run);
  const command = evidence.command ?? given;
  const seconds = ((evidence.durationMs ?? 0) / 1000).toFixed(1);
  const failing = evidence.failed.slice(0, FAILING_SHOWN);
  const details = {
    command,
    reader,
    source,
    ran: evidence.ran,
    failed: evidence.failed.length,
    skipped: evidence.skipped ?? 0,
    failing,
    ...(evidence.durationMs === undefined ? {} : { durationMs: evidence.durationMs }),
  };
  const lines: DoctorLine[] = [];
  if (evidence.ran === 0) {
    const why = run.reason ?? (source === 'stdout' ? `the output holds no ${reader} test result` : `the ${reader} report ${source} holds no test`);
    lines.push({ status: 'problem', text: `tests: \`${command}\` ran no test in ${seconds} s (read: ${readBy}): ${why}` });
  } else {
    const more = evidence.failed.length > failing.length ? `, and ${evidence.failed.length - failing.length} more` : '';
    const names = failing.length === 0 ? '' : `; failing: ${failing.join('; ')}${more}`;
    lines.push({
      status: 'ok',
      text: `tests: \`${command}\` took ${seconds} s: ${evidence.ran} ran, ${evidence.failed.length} failed, ${evidence.skipped ?? 0} skipped (read: ${readBy})${names}`,
    });
    if (run.reason !== undefined) lines.push({ status: 'warning', text: `tests: ${run.reason}` });
  }
  if (reader === 'exit-code') {
    lines.push({
      status: 'warning',
      text: 'tests: the evidence is the exit code alone (tests.report.format "exit-code"): no test names, and a command that runs no test passes; a junit, tap, vitest-json or jest-json report is stronger',
    });
  }
  return check(lines, details);
}

async function checkDecisionModel(config: StopwiseConfig, env: NodeJS.ProcessEnv): Promise<{ check: ModelAnswer; report: DecisionModelCheck }> {
  const { client, ...settings } = config.decisionModel;
  if (client === 'none') {
    return {
      check: undefined,
      report: check([{ status: 'ok', text: 'decision model: none (decisionModel.client "none"); a stop with passing tests is allowed on the test evidence alone' }], {
        client,
        evaluations: 0,
      }),
    };
  }
  const apiKeyEnv = settings.apiKeyEnv ?? (client === 'system-one' ? 'SYSTEM_ONE_API_KEY' : 'OPENAI_API_KEY');
  const apiKeySet = (env[apiKeyEnv]?.trim() ?? '') !== '';
  const key = `key in ${apiKeyEnv}: ${apiKeySet ? 'set' : 'not set'}`;
  const made = await createHookClient({ ...settings, client }, env);
  if (made instanceof Error) {
    return {
      check: made,
      report: check([{ status: 'problem', text: `decision model (${client}, ${key}): ${made.message}` }], {
        client,
        apiKeyEnv,
        apiKeySet,
        evaluations: 0,
        errorKind: isDecisionModelError(made) ? made.kind : 'configuration',
      }),
    };
  }
  const where = `${made.model} at ${made.baseURL}`;
  const identity = { client, baseURL: made.baseURL, model: made.model, apiKeyEnv, apiKeySet };
  const { checkCompletion } = await import('../decision-model/check-completion.js');
  const started = performance.now();
  try {
    const answer = await checkCompletion(made, hookCompletionInput(config, SAMPLE_LAST_MESSAGE, SAMPLE_EVIDENCE.green));
    const ms = Math.round(performance.now() - started);
    const probabilities = Object.entries(answer.probabilities)
      .map(([name, p]) => `${name} ${p.toFixed(2)}`)
      .join(', ');
    return {
      check: answer,
      report: check(
        [
          {
            status: 'ok',
            text: `decision model: ${client} ${where} answered in ${ms} ms (${key}); on the green sample: ${probabilities}, ${answer.modelSaysDone ? 'done' : 'not done'}`,
          },
        ],
        { ...identity, evaluations: 1, probabilities: answer.probabilities, modelSaysDone: answer.modelSaysDone },
      ),
    };
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    const kind = isDecisionModelError(failure) ? failure.kind : 'unknown';
    return {
      check: failure,
      report: check([{ status: 'problem', text: `decision model: ${client} ${where} (${key}) could not be asked: ${kind}: ${failure.message}` }], {
        ...identity,
        evaluations: 1,
        errorKind: kind,
      }),
    };
  }
}

async function sampleAnswers(hosts: readonly HookHost[], config: StopwiseConfig, projectDir: string, model: ModelAnswer): Promise<SamplesCheck> {
  const now = new Date();
  const entry = async (host: HookHost, tests: TestEvidence): Promise<SampleAnswerEntry> => {
    const answer = await sampleStopAnswer(host, config, tests, model, { projectDir, now });
    return { kind: answer.kind, stdout: answer.stdout, ...(answer.message === undefined ? {} : { systemMessage: answer.message }) };
  };
  const results: HostSamples[] = [];
  for (const host of hosts) {
    results.push({
      host,
      red: await entry(host, SAMPLE_EVIDENCE.red),
      green: await entry(host, SAMPLE_EVIDENCE.green),
      noTests: await entry(host, SAMPLE_EVIDENCE['no-tests']),
    });
  }
  const basis =
    config.decisionModel.client === 'none'
      ? 'with no decision model: green is decided on the tests alone'
      : model instanceof Error
        ? 'with the decision model down, as it was above'
        : "with the decision model's answer above (red too: the hook asks it about failing tests as well)";
  return check([{ status: 'ok', text: `red: one failing test; green: all pass; no tests: none ran; ${basis}` }], { hosts: results });
}

function secretsIn(env: NodeJS.ProcessEnv, config: StopwiseConfig | undefined): string[] {
  const names = ['SYSTEM_ONE_API_KEY', 'OPENAI_API_KEY', ...(config?.decisionModel.apiKeyEnv === undefined ? [] : [config.decisionModel.apiKeyEnv])];
  return names.map((name) => env[name]?.trim() ?? '').filter((value) => value !== '');
}
