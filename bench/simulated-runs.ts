// A seeded generator of simulated agent runs, for the decision-model benchmark.
//
// `generateSimulatedRuns({ seed, runs })` returns `runs` recorded runs in the
// replay format (a header with a task and acceptance list, then one step a
// line with output, tests and probabilities). The same seed gives the same
// runs on every machine (mulberry32, no Math.random). Each run has:
//
// - 3 to 30 steps, so runs longer than the default cap of 20 reach it;
// - 0 to 3 early steps where no tests ran, then failing tests until a step
//   drawn per run (some runs never pass);
// - 1 to 4 criteria whose probabilities start low (0.05 to 0.5) and drift up
//   towards a target (0.45 to 0.99) with noise, rounded to 2 decimals as the
//   API does; about one run in ten has a model that says done early while
//   tests still fail;
// - in about one run in six, a stall: from a drawn step the output and tests
//   repeat exactly for 3 to 5 steps;
// - outputs of 150 B to about 12 KB, so a request spans 1 to 4 blocks of 4 KB.
import type { RunTrace, RunTraceStep } from '../src/replay/run-trace.js';
import { createSeededRandom } from '../src/calibrate/seeded-random.js';

/** Options of {@link generateSimulatedRuns}. */
export interface SimulatedRunOptions {
  readonly seed: number;
  readonly runs: number;
}

const CRITERIA = ['acceptanceCovered', 'noOpenQuestions', 'docsUpdated', 'noRegression'] as const;
const TASKS = [
  ['Add rate limiting to POST /login', ['a sixth attempt within a minute gets 429', 'the response carries Retry-After']],
  ['Fix the off-by-one in paginate()', ['the last partial page is returned', 'page size stays 20']],
  ['Stream rows in the CSV exporter', ['memory stays flat on 1 GB exports', 'the header row is unchanged']],
  ['Migrate the payments client to API v2', ['all calls use v2', 'refunds work', 'webhooks verify the v2 signature']],
  ['Make the HTTP client retry on ECONNRESET', ['a reset connection is retried up to 3 times']],
  ['Document the cache module', ['every exported function is documented', 'each has a runnable example']],
] as const;
const WORDS = (
  'the agent edited src/parser.ts reran the suite fixed the import order updated the fixture renamed a helper ' +
  'added a test for the edge case read the failing assertion adjusted the loop bound checked the docs example ' +
  'looked at the stack trace moved the validation into the constructor kept the public signature unchanged'
).split(' ');

/** Simulated runs in the replay format; the same seed always gives the same runs. */
export function generateSimulatedRuns({ seed, runs }: SimulatedRunOptions): RunTrace[] {
  const random = createSeededRandom(seed);
  const integer = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const between = (min: number, max: number) => min + random() * (max - min);
  const round2 = (value: number) => Math.round(Math.min(1, Math.max(0, value)) * 100) / 100;

  const traces: RunTrace[] = [];
  for (let run = 0; run < runs; run++) {
    const [task, acceptance] = TASKS[integer(0, TASKS.length - 1)]!;
    const length = integer(3, 30);
    const noTestSteps = integer(0, 3);
    const passesFrom = random() < 0.2 ? Number.POSITIVE_INFINITY : integer(noTestSteps + 1, Math.max(noTestSteps + 1, length));
    const overconfident = random() < 0.1;
    const criteria = CRITERIA.slice(0, integer(1, 4));
    const start = criteria.map(() => between(0.05, 0.5));
    const target = criteria.map(() => between(0.45, 0.99));
    const stallFrom = random() < 1 / 6 ? integer(2, length) : Number.POSITIVE_INFINITY;
    const stallLength = integer(3, 5);
    const outputBytes = Math.round(150 * Math.exp(between(0, Math.log(80))));
    const failingTests = ['suite > case 1', 'suite > case 2', 'suite > case 3'].slice(0, integer(1, 3));

    const steps: RunTraceStep[] = [];
    for (let step = 1; step <= length; step++) {
      const previous = steps[steps.length - 1];
      if (previous !== undefined && step > stallFrom && step <= stallFrom + stallLength) {
        steps.push({ ...previous, step, line: step + 1 });
        continue;
      }
      const progress = length === 1 ? 1 : (step - 1) / (length - 1);
      const ran = step <= noTestSteps ? 0 : integer(8, 240);
      const passing = ran > 0 && step >= passesFrom;
      const tests = ran === 0
        ? { passed: false, failed: [], ran: 0 }
        : passing
          ? { passed: true, failed: [], ran }
          : { passed: false, failed: failingTests.slice(0, Math.max(1, failingTests.length - Math.floor(progress * 2))), ran };
      const probabilities: Record<string, number> = {};
      criteria.forEach((name, index) => {
        const drift = start[index]! + (target[index]! - start[index]!) * Math.min(1, progress * 1.3);
        const sure = overconfident && step > noTestSteps ? between(0.8, 0.99) : drift + between(-0.08, 0.08);
        probabilities[name] = round2(sure);
      });
      steps.push({ step, output: makeOutput(step, outputBytes, random), tests, probabilities, line: step + 1 });
    }
    traces.push({ source: `simulated-${seed}-${run}`, header: { task, acceptance: [...acceptance], taskType: 'simulated' }, steps });
  }
  return traces;
}

function makeOutput(step: number, bytes: number, random: () => number): string {
  const parts = [`Step ${step}:`];
  let size = parts[0]!.length;
  while (size < bytes) {
    const word = WORDS[Math.floor(random() * WORDS.length)]!;
    parts.push(word);
    size += word.length + 1;
  }
  return parts.join(' ');
}
