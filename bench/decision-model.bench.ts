// The decision model is asked only when rules 1 to 3 leave the decision open.
// Over the bundled example runs and a seeded corpus of simulated runs, this
// walks every run step by step as a live loop would, once with the lazy path
// (decideCompletionAfterEvaluate) and once evaluating on every step before
// deciding, and compares the actions, the decision-model calls and the
// estimated cost under block pricing.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import {
  DEFAULT_POLICY,
  advanceLoopState,
  booleanQuestion,
  decideCompletionAction,
  decideCompletionAfterEvaluate,
  initialLoopState,
} from '../src/index.js';
import { doneCriteria } from '../src/decision-model/boolean-question.js';
import { createCachedClient } from '../src/decision-model/cached-client.js';
import { createCompletionRequest } from '../src/decision-model/completion-request.js';
import type { DecisionModelQuestions } from '../src/decision-model/decision-model-client.js';
import { estimateDecisionModelCost, type DecisionModelPricing } from '../src/decision-model/estimate-decision-model-cost.js';
import { validateAnswers } from '../src/decision-model/validate-answers.js';
import { parseRunTrace, type RunTrace } from '../src/replay/run-trace.js';
import { createScriptedClient } from '../src/testing/index.js';
import { printTable } from './harness.js';
import { generateSimulatedRuns } from './simulated-runs.js';

const SEED = 20261130;
const RUNS = 1000;
const PRICING: DecisionModelPricing = { kind: 'blocks', blockBytes: 4096, pricePerBlock: 0.001 };

interface Tally {
  runs: number;
  steps: number;
  mismatches: number;
  lazyCalls: number;
  eagerCalls: number;
  cachedEagerCalls: number;
  lazyCost: number;
  eagerCost: number;
  /** How the runs ended, and how many steps each rule decided. */
  endings: Map<string, number>;
  rules: Map<number, number>;
}

function questionsFor(names: readonly string[]): DecisionModelQuestions {
  return Object.fromEntries(
    names.map((name) => [name, doneCriteria[name] ?? booleanQuestion(`Is the criterion "${name}" met by the output?`)]),
  );
}

async function compare(traces: readonly RunTrace[]): Promise<Tally> {
  const tally: Tally = {
    runs: traces.length,
    steps: 0,
    mismatches: 0,
    lazyCalls: 0,
    eagerCalls: 0,
    cachedEagerCalls: 0,
    lazyCost: 0,
    eagerCost: 0,
    endings: new Map(),
    rules: new Map(),
  };
  for (const trace of traces) {
    let current = trace.steps[0]!;
    const answer = () => current.probabilities;
    const lazyClient = createScriptedClient(answer);
    const eagerClient = createScriptedClient(answer);
    const cachedInner = createScriptedClient(answer);
    const cached = createCachedClient(cachedInner, { maxEntries: 64 });
    const questions = questionsFor(Object.keys(current.probabilities));
    let loop = initialLoopState();
    for (const recorded of trace.steps) {
      current = recorded;
      loop = { ...advanceLoopState(loop, recorded.tests, recorded.output, DEFAULT_POLICY.stallRounds), step: recorded.step };
      const input = {
        task: trace.header.task ?? '',
        output: recorded.output,
        acceptance: trace.header.acceptance ?? [],
        tests: recorded.tests,
        questions,
        loop,
      };
      const request = createCompletionRequest(input);
      const cost = estimateDecisionModelCost(request, PRICING).cost;

      const lazy = await decideCompletionAfterEvaluate(lazyClient, input);
      if (lazy.evaluated) tally.lazyCost += cost;

      const answered = validateAnswers(await eagerClient.evaluate(request), questions);
      await cached.evaluate(request);
      const eager = decideCompletionAction(answered.probabilities, recorded.tests, loop, DEFAULT_POLICY);
      tally.eagerCost += cost;

      const { evaluated: _evaluated, ...lazyAction } = lazy as typeof lazy & { probabilities?: unknown; model?: unknown };
      delete (lazyAction as { probabilities?: unknown }).probabilities;
      delete (lazyAction as { model?: unknown }).model;
      if (!isDeepStrictEqual(lazyAction, eager)) tally.mismatches += 1;
      tally.steps += 1;
      tally.rules.set(lazy.rule, (tally.rules.get(lazy.rule) ?? 0) + 1);
      const last = recorded === trace.steps[trace.steps.length - 1];
      if (eager.action !== 'retry' || last) {
        const ending = eager.action === 'retry' ? 'retry, recording ended' : `${eager.action}/${eager.reason}`;
        tally.endings.set(ending, (tally.endings.get(ending) ?? 0) + 1);
      }
      if (eager.action !== 'retry') break;
    }
    tally.lazyCalls += lazyClient.calls.length;
    tally.eagerCalls += eagerClient.calls.length;
    tally.cachedEagerCalls += cachedInner.calls.length;
  }
  return tally;
}

async function readExamples(): Promise<RunTrace[]> {
  const folder = fileURLToPath(new URL('../examples/traces/', import.meta.url));
  const names = (await readdir(folder)).filter((name) => name.endsWith('.jsonl')).sort();
  const traces: RunTrace[] = [];
  for (const name of names) {
    const parsed = parseRunTrace(await readFile(join(folder, name), 'utf8'), name);
    if (!parsed.ok) throw new Error(`${name}: ${parsed.error.message}`);
    traces.push(parsed.trace);
  }
  return traces;
}

const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;

export default async function run(): Promise<void> {
  const corpora: [string, RunTrace[]][] = [
    ['bundled examples', await readExamples()],
    [`simulated (seed ${SEED})`, generateSimulatedRuns({ seed: SEED, runs: RUNS })],
  ];
  const rows: string[][] = [];
  const tallies: [string, Tally][] = [];
  let mismatches = 0;
  for (const [name, traces] of corpora) {
    const t = await compare(traces);
    tallies.push([name, t]);
    mismatches += t.mismatches;
    rows.push([
      name,
      String(t.runs),
      String(t.steps),
      String(t.mismatches),
      String(t.eagerCalls),
      String(t.cachedEagerCalls),
      String(t.lazyCalls),
      percent(t.lazyCalls, t.eagerCalls),
      t.eagerCost.toFixed(3),
      t.lazyCost.toFixed(3),
      percent(t.lazyCost, t.eagerCost),
    ]);
  }
  printTable(
    'decision-model: lazy (decideCompletionAfterEvaluate) vs evaluate-then-decide on every step',
    ['corpus', 'runs', 'steps', 'mismatches', 'eager calls', 'eager+cache calls', 'lazy calls', 'lazy/eager calls', 'eager cost', 'lazy cost', 'lazy/eager cost'],
    rows,
  );
  console.log(`cost: block pricing, ${PRICING.kind === 'blocks' ? PRICING.blockBytes : 0} B blocks x questions x ${PRICING.kind === 'blocks' ? PRICING.pricePerBlock : 0} per block`);
  console.log('target: 0 mismatches');
  for (const [name, t] of tallies) {
    const endings = [...t.endings.entries()].sort((a, b) => b[1] - a[1]).map(([ending, count]) => `${ending}: ${count}`);
    const rules = [...t.rules.entries()].sort((a, b) => a[0] - b[0]).map(([rule, count]) => `${rule}: ${count}`);
    console.log(`${name}: runs ended in ${endings.join(', ')}`);
    console.log(`${name}: steps decided by rule ${rules.join(', ')} (rules 1 to 3 need no decision model)`);
  }
  if (mismatches !== 0) throw new Error(`the lazy path disagreed with evaluate-then-decide on ${mismatches} steps`);
}
