import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runAgentLoop, type BudgetLimits, type RunAgentLoopOptions, type StopOutcome, type TurnResult } from '../../src/index.js';
import { runAgentLoop as baselineRunAgentLoop, type RunAgentLoopOptions as BaselineOptions } from './run-agent-loop-baseline.js';

/** One scripted turn: what it used, how long it took on the injected clock, and what it said. */
interface ScriptedTurn {
  readonly ms: number;
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number; readonly cost: number };
  readonly toolErrors: number;
  readonly text: string | undefined;
  readonly intent: TurnResult['signal'] | { readonly halt: NonNullable<TurnResult['halt']> } | undefined;
  readonly verified: boolean;
  readonly human: 'answer' | 'timeout';
}

interface Script {
  readonly limits: BudgetLimits;
  readonly turns: readonly ScriptedTurn[];
  readonly askHuman: boolean;
  readonly onHumanTimeout: 'stop' | 'continue';
  readonly wrapUpSteps: number;
}

const intent = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  fc.constant({ kind: 'done' as const, note: 'finished' }),
  fc.constant({ kind: 'give_up' as const, note: 'the portal is down' }),
  fc.constant({ kind: 'need_help' as const, note: 'which account?' }),
  fc.constantFrom(
    { halt: { kind: 'out_of_budget' as const, limit: 'tokens' as const } },
    { halt: { kind: 'failed' as const, error: 'unknown stop reason' } },
    { halt: { kind: 'blocked' as const, reason: 'model refused' } },
    { halt: { kind: 'need_help' as const, question: 'which region?' } },
    { halt: { kind: 'done' as const, summary: 'fixed' } },
  ),
);

const turn: fc.Arbitrary<ScriptedTurn> = fc.record({
  ms: fc.integer({ min: 0, max: 30 }),
  usage: fc.record({ inputTokens: fc.integer({ min: 0, max: 120 }), outputTokens: fc.integer({ min: 0, max: 60 }), cost: fc.constantFrom(0, 0.1, 0.25, 0.3, 0.7) }),
  toolErrors: fc.integer({ min: 0, max: 2 }),
  text: fc.option(fc.constantFrom('working', 'same', 'summary'), { nil: undefined }),
  intent,
  verified: fc.boolean(),
  human: fc.constantFrom('answer' as const, 'timeout' as const),
});

const limits: fc.Arbitrary<BudgetLimits> = fc.record(
  {
    maxSteps: fc.oneof(fc.integer({ min: 0, max: 8 }), fc.constantFrom(2.5, Infinity)),
    maxWallClockMs: fc.integer({ min: 0, max: 120 }),
    maxInputTokens: fc.integer({ min: 0, max: 400 }),
    maxOutputTokens: fc.integer({ min: 0, max: 200 }),
    maxTotalTokens: fc.integer({ min: 0, max: 500 }),
    maxCost: fc.constantFrom(0, 0.5, 1, 1.5),
    maxToolErrors: fc.integer({ min: 0, max: 4 }),
  },
  { requiredKeys: [] },
);

const script: fc.Arbitrary<Script> = fc.record({
  limits,
  turns: fc.array(turn, { minLength: 1, maxLength: 10 }),
  askHuman: fc.boolean(),
  onHumanTimeout: fc.constantFrom('stop' as const, 'continue' as const),
  wrapUpSteps: fc.integer({ min: 0, max: 2 }),
});

/** The options of one run of a script; every call builds fresh callbacks, so both loops see the same script. */
function optionsOf(s: Script): RunAgentLoopOptions {
  let t = 0;
  let current: ScriptedTurn | undefined;
  return {
    limits: s.limits,
    now: () => t,
    humanTimeoutMs: 0,
    onHumanTimeout: s.onHumanTimeout,
    wrapUpSteps: s.wrapUpSteps,
    turn: (state) => {
      // Past the script, the model gives up: every run ends.
      current = s.turns[state.step - 1];
      if (current === undefined) return { signal: { kind: 'give_up', note: 'out of script' } };
      t += current.ms;
      const said = current.intent === undefined ? {} : 'halt' in current.intent ? { halt: current.intent.halt } : { signal: current.intent };
      return { usage: current.usage, toolErrors: current.toolErrors, ...(current.text === undefined ? {} : { text: current.text }), ...said };
    },
    verify: () => (current?.verified === false ? { ok: false, unmet: ['tests pass'] } : { ok: true }),
    ...(s.askHuman ? { askHuman: () => (current?.human === 'timeout' ? new Promise<string>(() => {}) : 'yes') } : {}),
  };
}

/** The outcome without what only the engine-run loop records (the deciding rule), and the thrown value as plain data. */
function comparable(outcome: StopOutcome): unknown {
  const { decision: _decision, ...rest } = outcome as StopOutcome & { cause?: unknown };
  const cause = (rest as { cause?: unknown }).cause;
  return {
    ...rest,
    ...(cause instanceof Error ? { cause: { name: cause.name, message: cause.message } } : {}),
    trace: rest.trace.map(({ decision: _d, ...record }) => record),
  };
}

describe('runAgentLoop with limits decides as it did before the stop engine', () => {
  it('gives the same outcome, trace and usage as the baseline on random scripts', async () => {
    await fc.assert(
      fc.asyncProperty(script, async (s) => {
        const [now, before] = await Promise.all([runAgentLoop(optionsOf(s)), baselineRunAgentLoop(optionsOf(s) as BaselineOptions)]);
        expect(comparable(now)).toEqual(comparable(before));
      }),
      { numRuns: 2_000 },
    );
  }, 120_000);

  it('names the deciding rule on every exit the policy decided, and on each turn record', async () => {
    const outcome = await runAgentLoop({
      limits: { maxSteps: 3 },
      turn: () => ({ text: 'working' }),
      verify: () => ({ ok: true }),
    });
    expect(outcome).toMatchObject({ exit: 'limit', limit: 'steps', key: 'maxSteps', used: 3, max: 3, decision: { kind: 'stop', exit: 'limit', rule: 'maxSteps', reason: 'maxSteps' } });
    expect(outcome.trace.map((record) => record.decision)).toEqual([
      { kind: 'continue', rule: null, reason: 'no_rule_fired' },
      { kind: 'continue', rule: null, reason: 'no_rule_fired' },
      { kind: 'stop', rule: 'maxSteps', reason: 'maxSteps' },
    ]);
  });
});
