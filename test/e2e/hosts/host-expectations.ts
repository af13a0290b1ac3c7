import type { ScratchProject } from './scratch-project.js';

/** The checks a host may fail for a known problem, each with the note that says what goes wrong and the fix. */
export type KnownProblemCheck = 'runNotEndedByHost' | 'nudge' | 'refusal' | 'errorInRefusal' | 'handOffBeforeHostLoopDetection';

/** Where a block's reason lands in the model's next request: the text before it in its field, and at most how long that is. */
export interface ReasonWrapper {
  /** What the wrapper is, for the test's name. */
  readonly name: string;
  /** The whole text before the reason in its field. */
  readonly before: (project: ScratchProject) => string | RegExp;
  /** At most this many characters stand before the reason (what the suite measured with the pinned version). */
  readonly maxChars: (project: ScratchProject) => number;
}

/** What the suite expects of one host, where the hosts differ. */
export interface HostExpectations {
  /** Every place a block's reason lands in the model's next request, in the order of the request body. */
  readonly reasonWrappers: readonly ReasonWrapper[];
  /** What the host prints for the person, as it appears in its stdout or stderr. */
  readonly person: {
    /** When a stop hook blocks, given the reason's first line; undefined when it prints nothing of the reason. */
    readonly block?: (firstLine: string) => string;
    /** A stop hook's line for the person (`systemMessage`), given the line; undefined when it shows it nowhere. */
    readonly line?: (text: string) => string;
  };
  /** How the tool guard climbs its ladder on this host. */
  readonly guard: {
    /**
     * The call whose result carries the nudge: the third identical failing
     * call (on a host whose tool event carries no exit code, such as Codex, the
     * failure is read from the output itself).
     */
    readonly nudgeAfterCall: number;
    /** The host's own loop detection: the identical call it stops, and what it tells the model. */
    readonly hostLoopDetection?: { readonly call: number; readonly message: string };
  };
  readonly knownProblems?: Partial<Readonly<Record<KnownProblemCheck, string>>>;
}
