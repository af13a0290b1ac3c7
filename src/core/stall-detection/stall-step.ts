import type { TestEvidence } from '../test-evidence.js';

/**
 * One step of an agent run as the stall detector reads it: a tool call (`tool`,
 * `input`) and its result (`output`, `error`, `exitCode`, `tests`), or a message
 * (`text` and no `tool`; `output` is the reply it got, if any).
 *
 * `error: true` or a non-zero `exitCode` marks a failed call; `error: false` or
 * `exitCode: 0` a successful one. When neither is known the detector may infer a
 * failure from the output (see `StallOptions.inferErrors`).
 */
export interface StallStep {
  readonly tool?: string;
  readonly input?: unknown;
  readonly output?: string;
  readonly error?: boolean;
  readonly exitCode?: number | null;
  readonly text?: string;
  readonly tests?: TestEvidence;
}
