// A seeded generator of recorded run outcomes, for the report benchmark and the report tests.
//
// `simulateOutcomeRecords({ seed, runs, days })` returns `runs` outcome records (the lines
// `appendOutcomeRecord` writes) spread evenly over `days` days from 2026-03-02, each a full
// StopOutcome with a trace of one record per turn. Three task types (bugfix, research,
// billing); per run 2 to 24 steps; exits drawn with a limit share of 8% (`rise` raises it
// for one task type over a range of days); about one run in six asks a person (answered
// after 20 s to 15 min, or timed out at 5 min); a third of the successes carry an
// independent check and one run in twenty is impossible on purpose. The same seed gives
// the same records on every machine (mulberry32, no Math.random).
import type { StopOutcome } from '../src/index.js';
import type { BudgetLimitKind } from '../src/core/budget.js';
import { toOutcomeRecord, type OutcomeRecord } from '../src/core/outcome-record.js';
import type { TurnRecord } from '../src/core/stop-outcome.js';
import { createSeededRandom } from '../src/calibrate/seeded-random.js';

/** Options of {@link simulateOutcomeRecords}. */
export interface SimulatedOutcomeOptions {
  readonly seed: number;
  readonly runs: number;
  readonly days: number;
  /** The share of limit stops of one task type over days [fromDay, toDay). */
  readonly rise?: { readonly taskType: string; readonly fromDay: number; readonly toDay: number; readonly limitShare: number };
}

const START_MS = Date.UTC(2026, 2, 2);
const DAY_MS = 86_400_000;
const TASK_TYPES = ['bugfix', 'research', 'billing'] as const;
const LIMIT_KINDS: readonly BudgetLimitKind[] = ['steps', 'steps', 'wall_clock', 'cost', 'tokens'];
const GIVE_UPS = [
  'The fixture database the tests need is not in the repository; I tried the seed script and the docker file.',
  'The API the task names was removed in v3 and nothing replaces it.',
  'Two acceptance criteria contradict each other (the page must be static and show live prices).',
];
const QUESTIONS = ['Which currency should refunds use?', 'May I drop the legacy /v1 endpoint?', 'Is the 2019 data set still the reference?'];

/** `runs` outcome records, in time order. */
export function simulateOutcomeRecords(options: SimulatedOutcomeOptions): OutcomeRecord[] {
  const random = createSeededRandom(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const records: OutcomeRecord[] = [];
  const spanMs = options.days * DAY_MS;
  for (let i = 0; i < options.runs; i += 1) {
    const atMs = START_MS + Math.floor(((i + random()) / options.runs) * spanMs);
    const taskType = pick(TASK_TYPES);
    const day = Math.floor((atMs - START_MS) / DAY_MS);
    const rise = options.rise;
    const limitShare = rise !== undefined && rise.taskType === taskType && day >= rise.fromDay && day < rise.toDay ? rise.limitShare : 0.08;
    const steps = 2 + Math.floor(random() * 23);
    const trace: TurnRecord[] = [];
    let wallClockMs = 0;
    let cost = 0;
    let inputTokens = 0;
    let outputTokens = 0;
    const asks = random() < 1 / 6 ? 1 + Math.floor(random() * steps) : 0;
    for (let step = 1; step <= steps; step += 1) {
      const ms = 800 + Math.floor(random() * 9000);
      const usage = { inputTokens: 1500 + Math.floor(random() * 3000), outputTokens: 200 + Math.floor(random() * 800), cost: 0.002 + random() * 0.01, toolErrors: random() < 0.05 ? 1 : 0 };
      wallClockMs += ms;
      cost += usage.cost;
      inputTokens += usage.inputTokens;
      outputTokens += usage.outputTokens;
      const turn: { -readonly [K in keyof TurnRecord]: TurnRecord[K] } = { step, ms, usage, wrapUp: false };
      if (step === asks) {
        const answered = random() < 0.8;
        const waitedMs = answered ? 20_000 + Math.floor(random() * 880_000) : 300_000;
        turn.human = answered
          ? { question: pick(QUESTIONS), answer: 'Use EUR.', waitedMs, timedOut: false }
          : { question: pick(QUESTIONS), waitedMs, timedOut: true };
        wallClockMs += waitedMs;
      }
      trace.push(turn);
    }
    const base = { steps, usage: { steps, wallClockMs, inputTokens, outputTokens, cost, toolErrors: 0 }, text: 'Done: the handler now returns 429 after five attempts.', trace };
    const draw = random();
    const impossible = random() < 0.05;
    let outcome: StopOutcome;
    if (draw < limitShare) {
      const limit = pick(LIMIT_KINDS);
      outcome = { ...base, exit: 'limit', limit, source: 'budget', key: limit === 'steps' ? 'maxSteps' : limit === 'cost' ? 'maxCost' : 'maxWallClockMs', used: steps, max: steps };
    } else if (draw < limitShare + (impossible ? 0.6 : 0.05)) {
      outcome = { ...base, exit: 'gave_up', note: pick(GIVE_UPS) };
    } else if (draw < limitShare + (impossible ? 0.6 : 0.05) + 0.04) {
      // nobody could be asked: runAgentLoop records the exchange on the last turn and ends at once
      const question = pick(QUESTIONS);
      const last = trace.length - 1;
      trace[last] = { ...(trace[last] as TurnRecord), human: { question, waitedMs: 0, timedOut: false } };
      outcome = { ...base, exit: 'need_help', question, waitedMs: 0 };
    } else if (draw < limitShare + (impossible ? 0.6 : 0.05) + 0.06) {
      outcome = { ...base, exit: 'failed', error: { name: 'APIConnectionError', message: 'connect ECONNRESET', during: 'turn' } };
    } else {
      outcome = { ...base, exit: 'success', note: 'All acceptance criteria are met and the tests pass.' };
    }
    const checked = outcome.exit === 'success' && random() < 1 / 3;
    records.push(
      toOutcomeRecord(outcome, {
        at: new Date(atMs),
        taskType,
        ...(checked ? { independentCheck: random() < 0.9 } : {}),
        ...(impossible ? { impossible: true } : {}),
      }),
    );
  }
  return records;
}

/** The records as the text of an outcomes file. */
export function outcomesFileText(records: readonly OutcomeRecord[]): string {
  return records.map((record) => `${JSON.stringify(record)}\n`).join('');
}
