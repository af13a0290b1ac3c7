import { formatRunTraceError, parseRunTrace, type RunTrace } from '../replay/run-trace.js';
import { outcomeOf, replayRun, summarizeReplays, type ReplayResult, type ReplaySummary } from '../replay/replay-run.js';
import { describeDecision } from '../core/policy/describe-decision.js';
import { SEED_STOP_POLICY, seedStopPolicy } from '../core/policy/seed-stop-policy.js';
import type { StopPolicyDocument } from '../core/policy/stop-policy-document.js';
import { CliUsageError, type CliIo } from './cli-io.js';
import { formatTable } from './format-table.js';
import { loadPolicyFile } from '../input/load-policy-file.js';
import { parseCommandLine } from './parse-command-line.js';
import { expandInputPaths, readTextFile } from './read-inputs.js';
import { countNoun } from '../core/count-noun.js';

const HELP = `usage: stopwise replay [--policy policy.json] [--json] FILES_OR_FOLDERS...

Walks each recorded run (JSON Lines, one step a line) through a stop policy
with the stop engine, stops where the policy stops, and prints a table per run
and a summary. A folder stands for the .jsonl files in it.

options:
  --policy FILE  a stop policy document (as calibrate --policy-out writes), or a
                 JSON file with some of doneThreshold, midBandLow, maxSteps and
                 stallRounds for the seed preset (default: the seed preset)
  --json         print the results as JSON
  -h, --help     show this help

exit codes: 0 every file was read; 1 a file or line could not be read; 2 usage error`;

/** `stopwise replay`: replays recorded runs through a stop policy. */
export async function replayCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(
    argv,
    {
      policy: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    HELP,
  );
  if (parsed.values.help) {
    io.stdout(`${HELP}\n`);
    return 0;
  }
  if (parsed.positionals.length === 0) throw new CliUsageError(`no recorded runs given\n\n${HELP}`);

  let document: StopPolicyDocument = SEED_STOP_POLICY;
  if (parsed.values.policy !== undefined) {
    const loaded = await loadPolicyFile(parsed.values.policy, io.cwd);
    if (!loaded.ok) {
      io.stderr(`stopwise replay: ${loaded.message}\n`);
      return 1;
    }
    document = 'document' in loaded ? loaded.document : seedStopPolicy(loaded.numbers);
  }

  const { files, failures } = await expandInputPaths(parsed.positionals, io.cwd, ['.jsonl']);
  const errors = failures.map((failure) => `${failure.path}: ${failure.message}`);
  const traces: RunTrace[] = [];
  for (const file of files) {
    const read = await readTextFile(file, io.cwd);
    if (!read.ok) {
      errors.push(`${file}: ${read.message}`);
      continue;
    }
    const trace = parseRunTrace(read.text, file);
    if (!trace.ok) {
      errors.push(formatRunTraceError(trace.error));
      continue;
    }
    traces.push(trace.trace);
  }
  return replayDocument(traces, document, errors, parsed.values.json, io);
}

function replayDocument(traces: readonly RunTrace[], policy: StopPolicyDocument, errors: string[], json: boolean, io: CliIo): number {
  const results: ReplayResult[] = [];
  for (const trace of traces) {
    try {
      results.push(replayRun(trace, policy));
    } catch (error) {
      // A policy that cannot decide a recorded step (a criterion it names is not in the trace) is this file's error.
      if (!(error instanceof TypeError)) throw error;
      errors.push(`${trace.source}: ${error.message}`);
    }
  }
  const summary = summarizeReplays(results);
  if (json) {
    io.stdout(`${JSON.stringify({ policy, runs: results, summary, errors }, null, 2)}\n`);
  } else if (results.length > 0 || errors.length === 0) {
    io.stdout(renderDocumentText(results, summary, policy));
  }
  for (const error of errors) io.stderr(`stopwise replay: ${error}\n`);
  return errors.length === 0 ? 0 : 1;
}

function renderDocumentText(results: readonly ReplayResult[], summary: ReplaySummary, policy: StopPolicyDocument): string {
  const out: string[] = [`policy: ${policy.name ?? 'unnamed'} (${countNoun(policy.rules.length, 'rule')}: ${policy.rules.map((rule) => rule.id).join(', ')})`, ''];
  for (const result of results) {
    out.push(`run ${result.source}${result.taskType === undefined ? '' : ` [${result.taskType}]`}`);
    if (result.task !== undefined) out.push(`task: ${result.task}`);
    const rows = result.steps.map((step) => [
      String(step.step),
      formatTests(step.tests),
      step.lowestCriterion === undefined ? '-' : `${step.lowestProbability.toFixed(2)} ${step.lowestCriterion}`,
      outcomeOf(step.decision),
      step.decision.reason,
      step.decision.rule ?? '-',
    ]);
    out.push(formatTable(['step', 'tests', 'lowest', 'outcome', 'reason', 'rule'], rows, ['right']));
    const ending =
      result.endedBy === 'decision'
        ? `=> ${describeDecision(result.final)}`
        : `=> the recording ended after ${countNoun(result.stepsRecorded, 'step')} while the policy still said ${outcomeOf(result.final)} (${result.final.reason})`;
    out.push(ending, '');
  }
  out.push(`summary: ${summary.runs} run${summary.runs === 1 ? '' : 's'}`);
  out.push(formatTable(['outcome', 'reason', 'runs'], summary.byOutcome.map((entry) => [entry.outcome, entry.reason, String(entry.count)]), ['left', 'left', 'right']));
  if (summary.unfinished > 0) out.push(`${summary.unfinished} run${summary.unfinished === 1 ? '' : 's'} ended before the policy stopped`);
  return `${out.join('\n')}\n`;
}

function formatTests(tests: { passed: boolean; failed: readonly string[]; ran: number }): string {
  if (tests.ran === 0) return 'none ran';
  if (tests.passed && tests.failed.length === 0) return `${tests.ran} passed`;
  return `${tests.failed.length}/${tests.ran} failed`;
}
