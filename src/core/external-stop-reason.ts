import type { BudgetLimitKind } from './budget.js';
import type { StopDecision } from './policy/stop-decision.js';
import type { StopExit } from './policy/stop-decision.js';
import type { StopOutcome } from './stop-outcome.js';

/** Claude Agent SDK result `subtype`. */
export type ClaudeAgentSdkSubtype =
  | 'success'
  | 'error_max_turns'
  | 'error_max_budget_usd'
  | 'error_during_execution'
  | 'error_max_structured_output_retries';
/** A2A task state. */
export type A2aTaskState = 'submitted' | 'working' | 'input-required' | 'auth-required' | 'completed' | 'canceled' | 'failed' | 'rejected';
/** ACP (Agent Client Protocol) stop reason of a prompt turn. */
export type AcpStopReason = 'end_turn' | 'max_tokens' | 'max_turn_requests' | 'refusal' | 'cancelled';
/** Inspect sample limit type. */
export type InspectLimit = 'message' | 'token' | 'context' | 'time' | 'working' | 'cost' | 'operator' | 'custom';
/** OpenHands conversation execution status. */
export type OpenHandsStatus = 'idle' | 'running' | 'paused' | 'waiting_for_confirmation' | 'finished' | 'error' | 'stuck';
/** `gen_ai.agent.finish_reason` (proposed): its well-known values, and stopwise's own `gave_up`. */
export type GenAiAgentFinishReason =
  | 'completed'
  | 'max_iterations'
  | 'max_tokens'
  | 'time_budget'
  | 'budget_exhausted'
  | 'cancelled'
  | 'error'
  | 'guardrail'
  | 'handoff'
  | 'tool_failure'
  | 'gave_up';

/** Each external vocabulary and its values. */
export interface ExternalStopVocabularies {
  readonly 'claude-agent-sdk': ClaudeAgentSdkSubtype;
  readonly a2a: A2aTaskState;
  readonly acp: AcpStopReason;
  readonly inspect: InspectLimit;
  readonly openhands: OpenHandsStatus;
  readonly 'gen-ai': GenAiAgentFinishReason;
}

/** One of the vocabularies {@link toExternalStopReason} writes. */
export type StopVocabulary = keyof ExternalStopVocabularies;

/** Every vocabulary, in the order of the docs' table. */
export const STOP_VOCABULARIES: readonly StopVocabulary[] = ['claude-agent-sdk', 'a2a', 'acp', 'inspect', 'openhands', 'gen-ai'];

/**
 * What an external value says in stopwise's terms: a stop with its exit (the
 * limit kind for a limit when the value names one; `aborted` when the run was
 * cancelled; `stalled` when it was found looping), or `continue` for a state
 * in which the run goes on.
 */
export type StopMeaning =
  | { readonly kind: 'continue' }
  | { readonly kind: 'stop'; readonly exit: StopExit; readonly limit?: BudgetLimitKind; readonly aborted?: true; readonly stalled?: true };

/**
 * A decision or an outcome in another system's vocabulary: the Claude Agent
 * SDK's result `subtype`, an A2A task state, an ACP stop reason, an Inspect
 * sample limit, an OpenHands execution status, or the proposed
 * `gen_ai.agent.finish_reason`.
 *
 * Takes a `StopDecision` (what `decide` returns, from every driver) or a
 * `StopOutcome` (how `runAgentLoop` ended): a limit maps by its kind (a
 * decision's kind is read from the limit it compared: `maxSteps`, `maxCost`,
 * ...), an outcome that failed with an `AbortError` maps to the
 * vocabulary's cancellation, a stall to OpenHands' `stuck`. `null` when the
 * vocabulary has no value for it: a decision that lets the run go on (except
 * A2A's `working` and OpenHands' `running`), an Inspect run that did not end
 * on a limit, an ACP turn that failed (ACP answers with an error instead).
 * Where the vocabulary is coarser than the five exits the mapping loses
 * detail; `fromExternalStopReason` then gives back the nearest exit.
 *
 * @example
 * toExternalStopReason(outcome, 'claude-agent-sdk'); // 'error_max_turns' for a run that hit maxSteps
 * toExternalStopReason(decision, 'gen-ai'); // 'completed' for a stop with exit 'success'
 */
export function toExternalStopReason<V extends StopVocabulary>(
  stop: StopDecision | StopOutcome,
  vocabulary: V,
): ExternalStopVocabularies[V] | null {
  const meaning = meaningOf(stop);
  const write = WRITERS[vocabulary] as ((meaning: StopMeaning) => ExternalStopVocabularies[V] | null) | undefined;
  if (write === undefined) throw new TypeError(`unknown stop vocabulary ${JSON.stringify(vocabulary)}; expected one of ${STOP_VOCABULARIES.join(', ')}`);
  return write(meaning);
}

/**
 * The meaning of an external value in stopwise's terms (see
 * {@link toExternalStopReason}); `undefined` for a value the vocabulary does
 * not define (the sets are open: a newer version may add one).
 *
 * @example
 * fromExternalStopReason('error_max_budget_usd', 'claude-agent-sdk'); // { kind: 'stop', exit: 'limit', limit: 'cost' }
 */
export function fromExternalStopReason(value: string, vocabulary: StopVocabulary): StopMeaning | undefined {
  const table = READERS[vocabulary] as Readonly<Record<string, StopMeaning>> | undefined;
  if (table === undefined) throw new TypeError(`unknown stop vocabulary ${JSON.stringify(vocabulary)}; expected one of ${STOP_VOCABULARIES.join(', ')}`);
  return Object.hasOwn(table, value) ? table[value] : undefined;
}

/** A decision or an outcome as a {@link StopMeaning}. */
export function meaningOf(stop: StopDecision | StopOutcome): StopMeaning {
  if (typeof stop !== 'object' || stop === null) throw new TypeError('toExternalStopReason takes a StopDecision or a StopOutcome');
  if ('kind' in stop) {
    if (stop.kind !== 'stop') return CONTINUE;
    const limit = stop.exit === 'limit' ? limitOfValues(stop.values) : undefined;
    const stalled = stop.values.stallRounds !== undefined || stop.values.stallMessage !== undefined;
    return { kind: 'stop', exit: stop.exit, ...(limit === undefined ? {} : { limit }), ...(stalled ? { stalled: true as const } : {}) };
  }
  switch (stop.exit) {
    case 'limit':
      return { kind: 'stop', exit: 'limit', limit: stop.limit };
    case 'failed':
      return stop.error.name === 'AbortError' ? { kind: 'stop', exit: 'failed', aborted: true } : { kind: 'stop', exit: 'failed' };
    default:
      return { kind: 'stop', exit: stop.exit };
  }
}

const CONTINUE: StopMeaning = Object.freeze({ kind: 'continue' });

/** The limit a decision compared, read from the `max...` value the limit condition reports. */
const LIMIT_OF_MAX: readonly (readonly [string, BudgetLimitKind])[] = [
  ['maxSteps', 'steps'],
  ['maxWallClockMs', 'wall_clock'],
  ['maxInputTokens', 'tokens'],
  ['maxOutputTokens', 'tokens'],
  ['maxTotalTokens', 'tokens'],
  ['maxCost', 'cost'],
  ['maxDecisionModelCost', 'cost'],
  ['maxToolErrors', 'tool_errors'],
];

function limitOfValues(values: StopDecision['values']): BudgetLimitKind | undefined {
  for (const [key, kind] of LIMIT_OF_MAX) if (values[key] !== undefined) return kind;
  return undefined;
}

type Writer<V extends StopVocabulary> = (meaning: StopMeaning) => ExternalStopVocabularies[V] | null;

const WRITERS: { readonly [V in StopVocabulary]: Writer<V> } = {
  'claude-agent-sdk': (m) => {
    if (m.kind === 'continue') return null;
    switch (m.exit) {
      case 'limit':
        return m.limit === 'steps' ? 'error_max_turns' : m.limit === 'cost' ? 'error_max_budget_usd' : 'error_during_execution';
      case 'failed':
        return 'error_during_execution';
      default:
        return 'success';
    }
  },
  a2a: (m) => {
    if (m.kind === 'continue') return 'working';
    switch (m.exit) {
      case 'success':
        return 'completed';
      case 'gave_up':
        return 'rejected';
      case 'need_help':
        return 'input-required';
      case 'failed':
        return m.aborted === true ? 'canceled' : 'failed';
      case 'limit':
        return 'failed';
    }
  },
  acp: (m) => {
    if (m.kind === 'continue') return null;
    switch (m.exit) {
      case 'success':
      case 'need_help':
        return 'end_turn';
      case 'gave_up':
        return 'refusal';
      case 'limit':
        return m.limit === 'tokens' ? 'max_tokens' : 'max_turn_requests';
      case 'failed':
        return m.aborted === true ? 'cancelled' : null;
    }
  },
  inspect: (m) => {
    if (m.kind === 'continue') return null;
    if (m.exit === 'failed') return m.aborted === true ? 'operator' : null;
    if (m.exit !== 'limit') return null;
    switch (m.limit) {
      case 'steps':
        return 'message';
      case 'tokens':
        return 'token';
      case 'wall_clock':
        return 'time';
      case 'cost':
        return 'cost';
      default:
        return 'custom';
    }
  },
  openhands: (m) => {
    if (m.kind === 'continue') return 'running';
    if (m.stalled === true) return 'stuck';
    switch (m.exit) {
      case 'success':
      case 'gave_up':
        return 'finished';
      case 'need_help':
        return 'waiting_for_confirmation';
      default:
        return 'error';
    }
  },
  'gen-ai': (m) => {
    if (m.kind === 'continue') return null;
    switch (m.exit) {
      case 'success':
        return 'completed';
      case 'gave_up':
        return 'gave_up';
      case 'need_help':
        return 'handoff';
      case 'failed':
        return m.aborted === true ? 'cancelled' : 'error';
      case 'limit':
        switch (m.limit) {
          case 'steps':
            return 'max_iterations';
          case 'tokens':
            return 'max_tokens';
          case 'wall_clock':
            return 'time_budget';
          case 'tool_errors':
            return 'tool_failure';
          default:
            return 'budget_exhausted';
        }
    }
  },
};

const stopMeaning = (exit: StopExit, extra: { limit?: BudgetLimitKind; aborted?: true; stalled?: true } = {}): StopMeaning => Object.freeze({ kind: 'stop', exit, ...extra });

const READERS: { readonly [V in StopVocabulary]: Readonly<Record<ExternalStopVocabularies[V], StopMeaning>> } = {
  'claude-agent-sdk': {
    success: stopMeaning('success'),
    error_max_turns: stopMeaning('limit', { limit: 'steps' }),
    error_max_budget_usd: stopMeaning('limit', { limit: 'cost' }),
    error_during_execution: stopMeaning('failed'),
    error_max_structured_output_retries: stopMeaning('failed'),
  },
  a2a: {
    submitted: CONTINUE,
    working: CONTINUE,
    'input-required': stopMeaning('need_help'),
    'auth-required': stopMeaning('need_help'),
    completed: stopMeaning('success'),
    canceled: stopMeaning('failed', { aborted: true }),
    failed: stopMeaning('failed'),
    rejected: stopMeaning('gave_up'),
  },
  acp: {
    end_turn: stopMeaning('success'),
    max_tokens: stopMeaning('limit', { limit: 'tokens' }),
    max_turn_requests: stopMeaning('limit', { limit: 'steps' }),
    refusal: stopMeaning('gave_up'),
    cancelled: stopMeaning('failed', { aborted: true }),
  },
  inspect: {
    message: stopMeaning('limit', { limit: 'steps' }),
    token: stopMeaning('limit', { limit: 'tokens' }),
    context: stopMeaning('limit', { limit: 'tokens' }),
    time: stopMeaning('limit', { limit: 'wall_clock' }),
    working: stopMeaning('limit', { limit: 'wall_clock' }),
    cost: stopMeaning('limit', { limit: 'cost' }),
    operator: stopMeaning('failed', { aborted: true }),
    custom: stopMeaning('limit'),
  },
  openhands: {
    idle: CONTINUE,
    running: CONTINUE,
    paused: CONTINUE,
    waiting_for_confirmation: stopMeaning('need_help'),
    finished: stopMeaning('success'),
    error: stopMeaning('failed'),
    stuck: stopMeaning('need_help', { stalled: true }),
  },
  'gen-ai': {
    completed: stopMeaning('success'),
    max_iterations: stopMeaning('limit', { limit: 'steps' }),
    max_tokens: stopMeaning('limit', { limit: 'tokens' }),
    time_budget: stopMeaning('limit', { limit: 'wall_clock' }),
    budget_exhausted: stopMeaning('limit', { limit: 'cost' }),
    cancelled: stopMeaning('failed', { aborted: true }),
    error: stopMeaning('failed'),
    guardrail: stopMeaning('failed'),
    handoff: stopMeaning('need_help'),
    tool_failure: stopMeaning('limit', { limit: 'tool_errors' }),
    gave_up: stopMeaning('gave_up'),
  },
};
