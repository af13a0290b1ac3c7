import { observeDigest } from '../core/stall-detection/observe-step.js';
import type { StallFinding } from '../core/stall-detection/stall-finding.js';
import { resolveStallOptions, type StallOptions, type StallOptionsInput, type ToolIdentity } from '../core/stall-detection/stall-options.js';
import type { StallPattern } from '../core/stall-detection/stall-pattern.js';
import { initialStallState, isStallState, type StallState } from '../core/stall-detection/stall-state.js';
import { digestStep, type StepDigest } from '../core/stall-detection/step-digest.js';
import type { HostDescription, ToolAnswer, ToolEvent } from './host.js';

/**
 * The escalation ladder of the tool guard, the same on every host: the first
 * `nudges` sightings of a finding let the call run with the finding as context
 * for the agent, the next `refusals` refuse the repeating call with a reason,
 * and after that, with `handOff`, the call is still refused and the next stop
 * hands the run to a person instead of blocking again.
 */
export interface ToolGuardLadder {
  readonly nudges: number;
  readonly refusals: number;
  readonly handOff: boolean;
}

/** What the tool guard runs with: whether it is on, its ladder and the stall detector's options. */
export interface ToolGuardOptions {
  readonly enabled: boolean;
  readonly ladder: ToolGuardLadder;
  readonly stall: StallOptions;
}

/**
 * What identifies the calls of the tools the hosts name, by default: a shell
 * call by its command alone (not its description or timeout). The detector's
 * own known tools (reading a background shell's output and polling a process
 * poll, browser scrolling is repeatable) lie under them.
 */
const DEFAULT_TOOL_IDENTITIES: Readonly<Record<string, ToolIdentity>> = Object.freeze({
  Bash: Object.freeze({ arguments: Object.freeze(['command']) }),
});

const DEFAULT_LADDER: ToolGuardLadder = Object.freeze({ nudges: 1, refusals: 1, handOff: true });

/** The guard without configuration: on, one nudge, one refusal, then a hand-off at the next stop. */
export const DEFAULT_TOOL_GUARD_OPTIONS: ToolGuardOptions = Object.freeze({
  enabled: true,
  ladder: DEFAULT_LADDER,
  stall: resolveStallOptions({ tools: DEFAULT_TOOL_IDENTITIES }),
});

/** The `toolGuard` of a configuration (already validated by its schema) with the defaults filled in; tool identities laid over the default ones. */
export function resolveToolGuardOptions(
  input: { readonly enabled?: boolean; readonly ladder?: Partial<ToolGuardLadder>; readonly stall?: StallOptionsInput } | undefined,
): ToolGuardOptions {
  if (input === undefined) return DEFAULT_TOOL_GUARD_OPTIONS;
  return {
    enabled: input.enabled ?? true,
    ladder: { ...DEFAULT_LADDER, ...input.ladder },
    stall: input.stall === undefined ? DEFAULT_TOOL_GUARD_OPTIONS.stall : resolveStallOptions({ ...input.stall, tools: { ...DEFAULT_TOOL_IDENTITIES, ...input.stall.tools } }),
  };
}

/** A recorded call: the digest of its last run, whether that run's result differed from the run before, and when it started giving that result. */
interface RecordedCall {
  readonly digest: StepDigest;
  /** A short text of the call for messages: the tool and the start of its command or input. */
  readonly label: string;
  readonly changed: boolean;
  readonly since: string;
}

/** The finding the ladder climbs: which pattern, from which step, on which call, how often it was seen before a call. */
interface LadderState {
  readonly key: string;
  readonly pattern: StallPattern;
  readonly label: string;
  readonly since: number;
  readonly sinceAt: string;
  readonly repeats: number;
  readonly sightings: number;
  readonly refusals: number;
  readonly message: string;
  readonly error?: string;
}

/**
 * A hand-off the next stop makes: what to ask the person, what was tried, the evidence, what happens after the
 * answer; `delivered` when the refusal that made it already told the person (a host that may end the run before
 * any stop), so the stop lets the run end without saying it twice.
 */
interface HandOff {
  readonly question: string;
  readonly tried: string;
  readonly evidence: string;
  readonly afterAnswer: string;
  readonly at: string;
  readonly delivered?: true;
}

/**
 * What the tool guard remembers about one session between tool events: plain
 * JSON of digests and counters, bounded in size whatever the number of calls:
 * the stall detector's state over the recorded calls, the last run of the most
 * recent distinct calls, the finding the ladder is on and a pending hand-off.
 */
export interface ToolGuardState {
  readonly stall: StallState;
  readonly calls: readonly RecordedCall[];
  readonly ladder: LadderState | null;
  readonly handOff: HandOff | null;
  readonly totals: { readonly recorded: number; readonly nudges: number; readonly refusals: number; readonly handOffs: number };
}

/** How many distinct recent calls the state keeps (the longest cycle the detector looks for is 16). */
const MAX_RECORDED_CALLS = 16;

/** The state of a session the guard has not seen. */
export function initialToolGuardState(options: StallOptions): ToolGuardState {
  return { stall: initialStallState(options), calls: [], ladder: null, handOff: null, totals: { recorded: 0, nudges: 0, refusals: 0, handOffs: 0 } };
}

/** True for a value shaped like a saved {@link ToolGuardState} (its parts are the guard's own; a file another program wrote is not one). */
export function isToolGuardState(value: unknown): value is ToolGuardState {
  if (typeof value !== 'object' || value === null) return false;
  const state = value as Record<string, unknown>;
  const stall = state.stall;
  const totals = state.totals as Record<string, unknown> | null;
  return (
    isStallState(stall) &&
    Array.isArray(state.calls) && state.calls.length <= MAX_RECORDED_CALLS &&
    state.calls.every((call) => typeof call === 'object' && call !== null && typeof (call as RecordedCall).label === 'string' && typeof (call as RecordedCall).digest?.callDigest === 'string') &&
    (state.ladder === null || (typeof state.ladder === 'object' && typeof (state.ladder as LadderState).key === 'string')) &&
    (state.handOff === null || (typeof state.handOff === 'object' && typeof (state.handOff as HandOff).question === 'string')) &&
    typeof totals === 'object' && totals !== null && ['recorded', 'nudges', 'refusals', 'handOffs'].every((key) => Number.isInteger(totals[key]))
  );
}

const NONE: ToolAnswer = Object.freeze({ kind: 'none' });
const LABEL_CHARS = 80;

/**
 * The tool guard, host-agnostic and pure. A `post` event records the call
 * and its result as a step of the stall detector; when that step completes a
 * finding (the third identical failure, say), the answer to it is the nudge:
 * context for the agent, which every host passes with the call's result,
 * before the agent's next call. The guard acts only while a finding holds on
 * the recorded calls and the call about to run carries it on: a `pre` event
 * of the same call (for a cycle, any call of it) is refused with a reason
 * (after `ladder.nudges` nudges), and after `ladder.refusals` refusals the
 * call is still refused and a hand-off to a person waits for the next stop.
 * It never acts on a prediction alone (two failures are no reason to refuse
 * a third call, which may succeed), and one tool's stall never refuses
 * another call. A call whose last result changed, a repeated call whose
 * results differ, and infrastructure errors are progress or legitimate
 * retries: at most one nudge, never a refusal. A recorded step with no
 * finding ends the ladder and drops a pending hand-off.
 */
export function guardToolEvent(state: ToolGuardState, event: ToolEvent, options: ToolGuardOptions, now: Date): { state: ToolGuardState; answer: ToolAnswer } {
  if (!options.enabled) return { state, answer: NONE };
  return event.phase === 'post' ? recordCall(state, event, options, now) : checkCall(state, event, options, now);
}

function recordCall(state: ToolGuardState, event: ToolEvent, options: ToolGuardOptions, now: Date): { state: ToolGuardState; answer: ToolAnswer } {
  const at = now.toISOString();
  const digest = digestStep(
    {
      tool: event.tool,
      input: event.input,
      ...(event.output === undefined ? {} : { output: event.output }),
      ...(event.error === undefined ? {} : { error: event.error }),
      ...(event.exitCode === undefined ? {} : { exitCode: event.exitCode }),
    },
    options.stall,
  );
  const observed = observeDigest(state.stall, digest, options.stall);
  const previous = state.calls.find((call) => call.digest.callDigest === digest.callDigest);
  const changed = previous !== undefined && previous.digest.resultDigest !== digest.resultDigest;
  const recorded: RecordedCall = { digest, label: callLabel(event.tool, event.input), changed, since: previous !== undefined && !changed ? previous.since : at };
  const others = state.calls.filter((call) => call.digest.callDigest !== digest.callDigest);
  const calls = [...others.slice(Math.max(0, others.length - MAX_RECORDED_CALLS + 1)), recorded];
  const totals = { ...state.totals, recorded: state.totals.recorded + 1 };
  const finding = observed.stall;
  if (finding === undefined) return { state: { ...state, stall: observed.state, calls, ladder: null, handOff: null, totals }, answer: NONE };
  const ladder = climb(state.ladder, finding, recorded, at);
  const progress = changed || finding.pattern === 'repeated-call' || finding.pattern === 'infrastructure-errors';
  // Said while the ladder is on its nudges; a finding on progress is said once and never climbs further.
  const nudge = ladder.sightings <= (progress ? 1 : options.ladder.nudges);
  const next = { ...state, stall: observed.state, calls, ladder, totals: nudge ? { ...totals, nudges: totals.nudges + 1 } : totals };
  return { state: next, answer: nudge ? { kind: 'context', message: nudgeMessage(ladder, finding, progress) } : NONE };
}

function checkCall(state: ToolGuardState, event: ToolEvent, options: ToolGuardOptions, now: Date): { state: ToolGuardState; answer: ToolAnswer } {
  // Nothing holds on the recorded calls: the call runs, whatever it may repeat.
  const held = state.ladder;
  if (held === null) return { state, answer: NONE };
  const { callDigest } = digestStep({ tool: event.tool, input: event.input }, options.stall);
  const last = state.calls.find((call) => call.digest.callDigest === callDigest);
  if (last === undefined) return { state, answer: NONE };
  // The call about to run, predicted to give the result it gave last time: does it carry the finding that holds on?
  const finding = observeDigest(state.stall, last.digest, options.stall).stall;
  if (finding === undefined || last.changed || finding.pattern === 'repeated-call' || finding.pattern === 'infrastructure-errors') return { state, answer: NONE };
  // The same call (or the same cycle), not another one: one call's stall never refuses another.
  if (keyOf(finding, last) !== held.key) return { state, answer: NONE };
  const { nudges, refusals, handOff } = options.ladder;
  // Refused only once the agent was told, unless the ladder has no nudges at all.
  if (held.sightings < nudges) return { state, answer: NONE };
  const at = now.toISOString();
  const refused: LadderState = { ...held, refusals: held.refusals + 1 };
  const escalate = handOff && refused.refusals > refusals;
  const pending = escalate ? handOffFor(refused, state.handOff?.at ?? at) : state.handOff;
  return {
    state: {
      ...state,
      ladder: refused,
      handOff: pending,
      totals: { ...state.totals, refusals: state.totals.refusals + 1, handOffs: state.totals.handOffs + (escalate && state.handOff === null ? 1 : 0) },
    },
    answer: { kind: 'deny', reason: refusalReason(refused, escalate) },
  };
}

/**
 * The guard's options on a host whose own loop detection stops the `identicalCalls`-th identical call in a row
 * (and may end the run with no stop event): the ladder is capped so that its last rung, the refusal that asks a
 * person, comes before the host's stop even for the earliest finding on one repeated call (the same failure,
 * `repeatedResult.failingRepeats` times). Nudges are kept first, then refusals; a ladder that fits is unchanged.
 */
export function fitToolGuardToHost(options: ToolGuardOptions, host: Pick<HostDescription, 'loopDetection'>): ToolGuardOptions {
  const identicalCalls = host.loopDetection?.identicalCalls;
  if (identicalCalls === undefined || !options.enabled) return options;
  const first = earliestFinding(options.stall);
  if (first === undefined) return options;
  const { nudges, refusals, handOff } = options.ladder;
  // The calls after the one that completes the finding and before the one the host stops. The first refusal comes
  // after the nudges (at the next call when there are none), and with a hand-off the refusal after the last one asks
  // a person: nudges, then refusals, then that one must fit in them.
  const room = identicalCalls - 1 - first;
  const fitNudges = Math.min(nudges, Math.max(room, 1));
  const fitRefusals = !handOff ? refusals : Math.max(0, Math.min(refusals, room - Math.max(fitNudges, 1)));
  if (fitNudges === nudges && fitRefusals === refusals) return options;
  return { ...options, ladder: { nudges: fitNudges, refusals: fitRefusals, handOff } };
}

/** The fewest calls of one call in a row that make a finding the guard refuses: the same failure, the same result, any failure. */
function earliestFinding(stall: StallOptions): number | undefined {
  const counts = [
    stall.repeatedResult === false ? undefined : Math.min(stall.repeatedResult.failingRepeats, stall.repeatedResult.repeats),
    stall.repeatedFailingCall === false ? undefined : stall.repeatedFailingCall.repeats,
  ].filter((count): count is number => count !== undefined);
  return counts.length === 0 ? undefined : Math.min(...counts);
}

/**
 * A new user turn: the counts start afresh (as OpenHands and Gemini CLI do at each user message); the totals are
 * kept. A pending hand-off is kept for the stop that makes it.
 */
export function startToolGuardTurn(state: ToolGuardState, options: ToolGuardOptions): ToolGuardState {
  return { ...initialToolGuardState(options.stall), totals: state.totals, handOff: state.handOff };
}

/** The same finding is the same repeating call (whichever of its patterns holds), or the same cycle of calls. */
function keyOf(finding: StallFinding, call: RecordedCall): string {
  return finding.pattern === 'cycle' || finding.pattern === 'revisit' ? finding.pattern : call.digest.callDigest;
}

/** The ladder after one more sighting of `finding` on `call`: its count goes up when it is the same finding, else it starts over. */
function climb(before: LadderState | null, finding: StallFinding, call: RecordedCall, at: string): LadderState {
  const key = keyOf(finding, call);
  const same = before !== null && before.key === key ? before : undefined;
  return {
    key,
    pattern: finding.pattern,
    label: call.label,
    since: finding.since,
    sinceAt: same?.sinceAt ?? (call.since === '' ? at : call.since),
    repeats: finding.repeats,
    sightings: (same?.sightings ?? 0) + 1,
    refusals: same?.refusals ?? 0,
    message: finding.message,
    ...(call.digest.signature === '' ? {} : { error: call.digest.signature }),
  };
}

/** What to try instead, per pattern. */
const INSTEAD: Readonly<Record<StallPattern, string>> = {
  'repeated-result': 'read the result you already have and act on it, or change the input',
  'repeated-failing-call': 'read the error, change the command or fix what it runs, or try another way',
  'repeated-error': 'fix the cause of that error before you run anything that hits it again',
  cycle: 'break the cycle with a step you have not taken yet',
  revisit: 'take a step you have not taken yet, or stop and say what you need',
  'repeated-pair': 'use the result you already have, or change the input',
  'no-progress': 'the changes in between do not fix it: rethink the cause before running the check again',
  monologue: 'act with a tool or finish',
  'repeated-call': 'check whether the result you wait for can still come',
  'infrastructure-errors': 'wait before retrying, or report the outage',
};

/** What to try instead of a call that repeats: the same failure is a failing call to fix, not a result to read. */
function insteadOf(pattern: StallPattern, failed: boolean): string {
  return INSTEAD[pattern === 'repeated-result' && failed ? 'repeated-failing-call' : pattern];
}

function nudgeMessage(ladder: LadderState, finding: StallFinding, progress: boolean): string {
  // A finding on progress is never refused: the agent is not told that it will be.
  const instead = insteadOf(finding.pattern, ladder.error !== undefined);
  const next = progress ? `Next: ${instead}.` : `If you run it again unchanged it will be refused: ${instead}.`;
  return `stopwise: ${finding.message} (${ladder.label}, ${finding.repeats} times since step ${ladder.since + 1}.) ${next}`;
}

function refusalReason(ladder: LadderState, escalated: boolean): string {
  const error = ladder.error === undefined ? '' : ` Its error: ${ladder.error.replace(/[.!?]+$/, '')}.`;
  const times = ladder.refusals === 1 ? 'once' : `${ladder.refusals} times`;
  const next = escalated
    ? 'A person has been asked to look: stop here, end your turn and say what you need.'
    : `Instead: ${insteadOf(ladder.pattern, ladder.error !== undefined)}.`;
  return (
    `stopwise refused this call (${ladder.label}): it repeats. ${ladder.message} ` +
    `It has repeated ${ladder.repeats} times since step ${ladder.since + 1} (${ladder.sinceAt}); refused ${times} so far.${error} ${next}`
  );
}

function handOffFor(ladder: LadderState, at: string): HandOff {
  return {
    question: `The agent keeps repeating ${ladder.label} and does not get further: how should it go on?`,
    tried: `It ran it ${ladder.repeats} times since step ${ladder.since + 1} (${ladder.sinceAt}); stopwise nudged it, then refused the call ${ladder.refusals === 1 ? 'once' : `${ladder.refusals} times`}.`,
    evidence: `${ladder.pattern}: ${ladder.message}${ladder.error === undefined ? '' : ` Last error: ${ladder.error}`}`,
    afterAnswer: 'Your answer goes to the agent as the next message; the tool guard then starts counting afresh.',
    at,
  };
}

/** The text a hand-off shows the person: the question, what was tried, the evidence, what happens after the answer. */
export function describeHandOff(handOff: HandOff): string {
  return [
    `stopwise: the agent needs a person. ${handOff.question}`,
    `Tried: ${handOff.tried}`,
    `Evidence: ${handOff.evidence}`,
    `After your answer: ${handOff.afterAnswer}`,
  ].join('\n');
}

/** A short text of a call for messages: the tool and the start of its command (or its input as JSON). */
export function callLabel(tool: string, input: unknown): string {
  const record = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : undefined;
  const text =
    typeof input === 'string'
      ? input
      : typeof record?.command === 'string'
        ? record.command
        : typeof record?.file_path === 'string'
          ? record.file_path
          : safeJson(input);
  const line = text.replace(/\s+/g, ' ').trim();
  const short = line.length > LABEL_CHARS ? `${line.slice(0, LABEL_CHARS - 1)}…` : line;
  return short === '' ? `\`${tool}\`` : `\`${tool}\` \`${short.replaceAll('`', "'")}\``;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}
