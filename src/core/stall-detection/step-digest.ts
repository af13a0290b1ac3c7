import { Murmur128 } from '../murmur-hash.js';
import { testsFailed, type TestEvidence } from '../test-evidence.js';
import { callKey } from './call-key.js';
import { errorSignatureOfLines, finalLines, infrastructureInLines, looksFailedLines } from './error-signature.js';
import { normalizeOutput } from './normalize-output.js';
import type { ArgumentMatch, StallOptions, ToolIdentity } from './stall-options.js';
import type { StallStep } from './stall-step.js';

/** What the detector keeps of one step: digests and flags, no text but the tool name and a short error line. */
export interface StepDigest {
  readonly call: boolean;
  readonly tool: string;
  readonly polling: boolean;
  /** A call repeating is legitimate whatever it returns (scrolling, paging): invisible to every pattern. Absent means false. */
  readonly repeatable?: boolean;
  /** The step is a user message: a turn boundary. Absent means false. */
  readonly turn?: boolean;
  /** A step with neither a call nor a text: an event of the environment (a context condensation). Absent means false. */
  readonly event?: boolean;
  /** False when the step says nothing of its result (no output, no error, no exit code). Absent means true. */
  readonly resultKnown?: boolean;
  readonly callDigest: string;
  readonly resultDigest: string;
  readonly failed: boolean;
  /** The error line of a failed call (for the message), empty otherwise. */
  readonly signature: string;
  readonly signatureDigest: string;
  readonly infrastructure: boolean;
  readonly silentMessage: boolean;
  /** Undefined without test evidence, null when the tests did not fail, else the failing set's digest. */
  readonly tests: string | null | undefined;
  readonly failedTests: number;
}

/** Digests are the first 64 bits of MurmurHash3 x86_128, as 16 hex characters. */
export function digest(...parts: readonly string[]): string {
  const hash = new Murmur128();
  for (const part of parts) hash.update(`${part.length}:`).update(part);
  return hash.digest().slice(0, 16);
}

const SIGNATURE_CHARS = 160;

/** The digests of one step under the given tool identities and error inference. */
export function digestStep(step: StallStep, options: Pick<StallOptions, 'tools' | 'inferErrors'> & Partial<Pick<StallOptions, 'ignoredArguments'>>): StepDigest {
  if (step.role === 'user') return { ...USER_TURN, callDigest: digest('user', normalizeOutput(step.text ?? '')) };
  const call = typeof step.tool === 'string';
  const tool = step.tool ?? '';
  const identity = call && Object.hasOwn(options.tools, tool) ? options.tools[tool] : undefined;
  const output = normalizeOutput(step.output ?? '');
  const callDigest = call ? digest('call', callKey(tool, step.input, identity, options.ignoredArguments)) : digest('message', normalizeOutput(step.text ?? ''));
  const exitCode = typeof step.exitCode === 'number' ? step.exitCode : null;
  const statusKnown = typeof step.error === 'boolean' || exitCode !== null;
  // The final lines are read at most once: for an inferred failure, its signature and whether it is infrastructure.
  let lines: string[] | undefined;
  const tail = (): string[] => (lines ??= finalLines(output));
  const failed =
    step.error === true || (exitCode !== null && exitCode !== 0) || (call && !statusKnown && options.inferErrors && looksFailedLines(tail()));
  const resultDigest = digest(output, failed ? 'failed' : 'ok', exitCode === null ? '' : String(exitCode));
  const signature = failed && call ? errorSignatureOfLines(tail()) : '';
  const repeatable = call && matches(identity?.repeatable, step.input);
  const resultKnown = step.output !== undefined || statusKnown;
  return {
    call,
    tool,
    polling: call && (matches(identity?.polling, step.input) || waitsOnly(step.input)),
    ...(repeatable ? { repeatable } : {}),
    ...(resultKnown ? {} : { resultKnown }),
    ...(!call && step.text === undefined ? { event: true } : {}),
    callDigest,
    resultDigest,
    failed,
    signature: signature.length > SIGNATURE_CHARS ? signature.slice(0, SIGNATURE_CHARS) : signature,
    signatureDigest: signature === '' ? '' : digest(signature),
    infrastructure: failed && call && infrastructureInLines(tail()),
    silentMessage: !call && step.text !== undefined && output === '',
    tests: step.tests === undefined ? undefined : testsFailed(step.tests) ? testsDigest(step.tests) : null,
    failedTests: step.tests?.failed.length ?? 0,
  };
}

const USER_TURN: Omit<StepDigest, 'callDigest'> = Object.freeze({
  call: false,
  tool: '',
  polling: false,
  turn: true,
  resultDigest: '',
  failed: false,
  signature: '',
  signatureDigest: '',
  infrastructure: false,
  silentMessage: false,
  tests: undefined,
  failedTests: 0,
});

function matches(rule: ToolIdentity['polling'], input: unknown): boolean {
  if (rule === undefined || rule === false) return false;
  if (rule === true) return true;
  const value = typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[(rule as ArgumentMatch).argument] : undefined;
  return typeof value === 'string' && rule.values.includes(value);
}

// A shell command that only waits ("sleep 30", "wait"), or an empty one (OpenHands reads more output of a running
// command so), polls, whatever the tool is called.
const WAIT_ONLY = /^\s*(?:(?:sleep\s+\d+(?:\.\d+)?[smh]?|wait)\s*(?:;|&&|$)\s*)+$/;

function waitsOnly(input: unknown): boolean {
  const command = typeof input === 'string' ? input : typeof input === 'object' && input !== null ? (input as Record<string, unknown>).command : undefined;
  return typeof command === 'string' && command.length < 64 && (command.trim() === '' || WAIT_ONLY.test(command));
}

function testsDigest(tests: TestEvidence): string {
  const failed = tests.failed.length > 1 ? [...tests.failed].sort() : tests.failed;
  return digest('tests', tests.passed ? '1' : '0', ...failed);
}
