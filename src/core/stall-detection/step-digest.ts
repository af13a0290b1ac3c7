import { Murmur128 } from '../murmur-hash.js';
import { testsFailed, type TestEvidence } from '../test-evidence.js';
import { callKey } from './call-key.js';
import { errorSignature, isInfrastructureError, looksFailed } from './error-signature.js';
import { normalizeOutput } from './normalize-output.js';
import type { StallOptions } from './stall-options.js';
import type { StallStep } from './stall-step.js';

/** What the detector keeps of one step: digests and flags, no text but the tool name and a short error line. */
export interface StepDigest {
  readonly call: boolean;
  readonly tool: string;
  readonly polling: boolean;
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
export function digestStep(step: StallStep, options: Pick<StallOptions, 'tools' | 'inferErrors'>): StepDigest {
  const call = typeof step.tool === 'string';
  const tool = step.tool ?? '';
  const identity = call && Object.hasOwn(options.tools, tool) ? options.tools[tool] : undefined;
  const output = normalizeOutput(step.output ?? '');
  const callDigest = call ? digest('call', callKey(tool, step.input, identity)) : digest('message', normalizeOutput(step.text ?? ''));
  const exitCode = typeof step.exitCode === 'number' ? step.exitCode : null;
  const statusKnown = typeof step.error === 'boolean' || exitCode !== null;
  const failed =
    step.error === true || (exitCode !== null && exitCode !== 0) || (call && !statusKnown && options.inferErrors && looksFailed(output));
  const resultDigest = digest(output, failed ? 'failed' : 'ok', exitCode === null ? '' : String(exitCode));
  const signature = failed && call ? errorSignature(output) : '';
  return {
    call,
    tool,
    polling: identity?.polling === true,
    callDigest,
    resultDigest,
    failed,
    signature: signature.length > SIGNATURE_CHARS ? signature.slice(0, SIGNATURE_CHARS) : signature,
    signatureDigest: signature === '' ? '' : digest(signature),
    infrastructure: signature !== '' && isInfrastructureError(signature),
    silentMessage: !call && step.text !== undefined && output === '',
    tests: step.tests === undefined ? undefined : testsFailed(step.tests) ? testsDigest(step.tests) : null,
    failedTests: step.tests?.failed.length ?? 0,
  };
}

function testsDigest(tests: TestEvidence): string {
  const failed = tests.failed.length > 1 ? [...tests.failed].sort() : tests.failed;
  return digest('tests', tests.passed ? '1' : '0', ...failed);
}
