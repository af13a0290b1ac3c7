import { resolve } from 'node:path';
import { formatUnmet } from '../core/policy/compile-stop-policy.js';
import { decide, initialStopState } from '../core/policy/decide.js';
import { describeDecision } from '../core/policy/describe-decision.js';
import { seedStopPolicy } from '../core/policy/seed-stop-policy.js';
import { loadPolicyFile } from '../input/load-policy-file.js';
import type { StopDecision } from '../core/policy/stop-decision.js';
import type { StopEvent } from '../core/policy/stop-event.js';
import type { StopPolicyDocument } from '../core/policy/stop-policy-document.js';
import { forEachJsonLine, formatLineError, LineFieldError, type LineError } from '../input/line-fields.js';
import { readJsonFile } from '../input/read-json-file.js';
import { CliUsageError, type CliIo } from './cli-io.js';
import { parseCommandLine } from './parse-command-line.js';
import { readTextFile } from './read-inputs.js';

const HELP = `usage: stopwise explain --policy POLICY.json [--json] EVENTS.jsonl

Decides each event (one JSON object a line: { "step", "tests", "probabilities",
"output", "usage", ... }) with a stop policy document and prints, per event, the
rule that fired with the values it compared, and why each earlier rule did not.

options:
  --policy FILE  a stop policy document ({ "version": 2, "rules": [...] })
  --json         print the decisions as JSON, one object per event
  -h, --help     show this help

exit codes: 0 every event was decided; 1 the policy or an event could not be read; 2 usage error`;

/** One decided event as `explain --json` prints it. */
interface ExplainedEvent {
  readonly line: number;
  readonly step: number;
  readonly decision: StopDecision;
}

/** `stopwise explain`: walks events through a stop policy and says why each rule fired or did not. */
export async function explainCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(
    argv,
    {
      policy: { type: 'string' },
      events: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    HELP,
  );
  if (parsed.values.help) {
    io.stdout(`${HELP}\n`);
    return 0;
  }
  const policyPath = parsed.values.policy;
  if (policyPath === undefined) throw new CliUsageError(`--policy is required\n\n${HELP}`);
  const eventsPath = parsed.values.events ?? parsed.positionals[0];
  if (eventsPath === undefined) throw new CliUsageError(`no events file given\n\n${HELP}`);
  if (parsed.positionals.length > (parsed.values.events === undefined ? 1 : 0)) throw new CliUsageError(`one events file at a time\n\n${HELP}`);

  const policy = await loadPolicyDocument(policyPath, io.cwd);
  if (!policy.ok) {
    io.stderr(`stopwise explain: ${policy.message}\n`);
    return 1;
  }
  const read = await readTextFile(eventsPath, io.cwd);
  if (!read.ok) {
    io.stderr(`stopwise explain: ${eventsPath}: ${read.message}\n`);
    return 1;
  }

  const explained: ExplainedEvent[] = [];
  let state = initialStopState(policy.document);
  const failure: LineError | undefined = forEachJsonLine(read.text, eventsPath, (value, line) => {
    try {
      const result = decide(policy.document, state, value as StopEvent);
      state = result.state;
      explained.push({ line, step: (value as StopEvent).step, decision: result.decision });
    } catch (error) {
      // A malformed event, or one out of step order, is the input's fault: reported with its line.
      if (error instanceof TypeError || error instanceof RangeError) throw new LineFieldError(error.message);
      throw error;
    }
  });
  // Reading stops at the first line that cannot be decided; what was decided before it is printed.
  const printed = explained.map((item) => (parsed.values.json ? JSON.stringify(item) : formatExplained(item))).join(parsed.values.json ? '\n' : '\n\n');
  if (printed !== '') io.stdout(`${printed}\n`);
  if (failure !== undefined) {
    io.stderr(`stopwise explain: ${formatLineError(failure)}\n`);
    return 1;
  }
  return 0;
}

function formatExplained({ line, decision }: ExplainedEvent): string {
  const lines = [`line ${line}: ${describeDecision(decision)}`];
  for (const entry of decision.trace) lines.push(`  ${entry.rule}: not fired (${formatUnmet(entry.unmet)})`);
  return lines.join('\n');
}

async function loadPolicyDocument(path: string, cwd: string): Promise<{ ok: true; document: StopPolicyDocument } | { ok: false; message: string }> {
  const loaded = await loadPolicyFile(path, cwd);
  if (!loaded.ok) return loaded;
  return { ok: true, document: 'document' in loaded ? loaded.document : seedStopPolicy(loaded.numbers) };
}
