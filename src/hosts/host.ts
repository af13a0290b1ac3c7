import type { StopDecision } from '../core/policy/stop-decision.js';
import { claudeCode } from './claude-code.js';
import { codex } from './codex.js';
import { copilot } from './copilot.js';
import { cursor } from './cursor.js';
import { gemini } from './gemini.js';

/** The coding-agent hosts that `stopwise hook` speaks to. */
export type HookHost = 'claude-code' | 'codex' | 'cursor' | 'copilot' | 'gemini';

/** A tool call a host reports to a tool hook, before it runs (`pre`) or after (`post`). */
export interface ToolEvent {
  readonly phase: 'pre' | 'post';
  readonly tool: string;
  readonly input?: unknown;
  readonly output?: string;
  readonly error?: boolean;
  readonly exitCode?: number | null;
  readonly callId?: string;
}

/** Where a hook event happened: the session and agent it belongs to, and the folder the agent works in. */
export interface HookEventPlace {
  /** The host's own name of the event (`Stop`, `PreToolUse`, `beforeShellExecution`, ...). */
  readonly eventName: string;
  readonly sessionId?: string;
  readonly agentId?: string;
  readonly cwd?: string;
}

/**
 * What one hook payload is about: the end of the agent's turn (`stop`), a
 * tool call (`tool`), or an event stopwise does not answer (`other`).
 */
export type HookEvent =
  | (HookEventPlace & {
      readonly kind: 'stop';
      /** The agent's last message (`''` when the host sends none). */
      readonly lastMessage: string;
      /** The host says this stop follows a block of the hook's own (`stop_hook_active`, a `loop_count` above 0). */
      readonly reentered: boolean;
      /**
       * The user turn this stop ends, when the host names it (a digest of Gemini's `prompt`): a stop in the turn of a
       * block is a re-entry even when the host's own flag says otherwise.
       */
      readonly turn?: string;
      /** Cursor: how many follow-ups the hook already sent in this loop. */
      readonly loopCount?: number;
      /** Cursor: `completed`, `aborted` or `error`: a run that did not complete is not checked. */
      readonly status?: string;
    })
  | (HookEventPlace & { readonly kind: 'tool'; readonly tool: ToolEvent })
  | (HookEventPlace & { readonly kind: 'other' });

/**
 * What the stop hook answers: the engine's decision (with extra context for a
 * block, and a warning for the person), a hand-off of its own when it could
 * not check (`reason` names why: `tool_guard`, `tests_timed_out`, ...), or a
 * stop it does not check at all (a run that did not complete).
 */
export type StopAnswer =
  | { readonly decision: StopDecision; readonly context?: string; readonly warning?: string }
  | { readonly handOff: string; readonly reason: string }
  | { readonly skipped: string };

/**
 * What the tool guard answers: nothing to say, context for the agent, or a refusal with a reason it can act on
 * (and, when the refusal hands the run to a person at once, the line for the person).
 */
export type ToolAnswer =
  | { readonly kind: 'none' }
  | { readonly kind: 'context'; readonly message: string }
  | { readonly kind: 'deny'; readonly reason: string; readonly person?: string };

/** What a hook process prints and how it exits: a JSON answer on stdout (none: print nothing), lines on stderr, the exit code. */
export interface HookOutput {
  readonly exitCode: 0 | 2;
  readonly stdout?: Readonly<Record<string, unknown>>;
  readonly stderr?: string;
}

/** A host's cap on consecutive stop blocks: it honours `blocks` blocks in a row and ends the run itself on the next; `source` says where the number comes from. */
export interface BlockCap {
  readonly blocks: number;
  readonly source: string;
}

/**
 * Everything stopwise knows of one host, in one place: where its hook
 * settings live and the shape of their entries, the events it sends, how a
 * payload reads, how an answer is written, its timeouts and block cap. The
 * hook path, `init` and `doctor` read only this. Adding a host is a file with
 * one of these, listed in `HOSTS`, and its contract fixtures.
 */
export interface HostDescription {
  readonly name: HookHost;
  /** The host's name as people know it. */
  readonly label: string;
  /** Where the project's hook settings are, relative to the project. */
  readonly settingsFile: string;
  /** The settings key of the stop event, and of each tool event `init` registers. */
  readonly events: { readonly stop: string; readonly tools: readonly string[] };
  /** The tools whose calls the tool hooks see by default (a host matcher), when the host filters by tool. */
  readonly toolMatcher?: string;
  /** The key of an entry's timeout, its unit in milliseconds, and the host's default in seconds (when it documents one). */
  readonly timeout: { readonly key: string; readonly unitMs: number; readonly defaultSeconds?: number };
  /**
   * How the host runs a hook's command line: the variable it sets to the
   * project folder, when it has one, and its shell: `posix` when it is a POSIX
   * shell (`sh -c`, `bash -c`), which reads the launcher itself
   * (`command .`, which a shell that is not POSIX, such as zsh outside its sh
   * emulation, reads otherwise); `any` when it may be the user's own shell,
   * which may not be POSIX, and gets the line inside `sh -c '...'`.
   */
  readonly command: { readonly projectDirVariable?: string; readonly shell: 'posix' | 'any' };
  /** How `stopwise hook` exits on unreadable stdin: never a code the host reads as a block or a refusal. */
  readonly unreadableExitCode: 0 | 1;
  /** What `init` tells the person after installing. */
  readonly note: string;
  /** A settings file's root as the host reads it (a version key), or why it is not one. */
  settingsRoot(root: Readonly<Record<string, unknown>>): Record<string, unknown> | string;
  /** The settings entry for one event: the command, its timeout and, for a tool event, the matcher. */
  entry(kind: 'stop' | 'tool', command: string, timeoutSeconds: number, matcher: string | undefined): Record<string, unknown>;
  /**
   * The host's own loop detection, when it has one: it stops the `identicalCalls`-th identical tool call in a row
   * itself (and may end the run with no stop event), so the tool guard fits its ladder under it.
   */
  readonly loopDetection?: { readonly identicalCalls: number };
  /** The host's cap on consecutive stop blocks, from the environment and the settings file; `undefined` when it has none. */
  blockCap(env: Readonly<Record<string, string | undefined>>, settings: unknown): BlockCap | undefined;
  /** Reads a payload (a parsed JSON object); a `TypeError` when it is no event of this host. */
  readEvent(payload: Readonly<Record<string, unknown>>): HookEvent;
  /** Writes a stop answer for this host; `message` is the line for the person of a hand-off. */
  encodeStop(answer: EncodedStop): HookOutput;
  /** Writes a tool guard answer to the tool event `eventName`. */
  encodeTool(eventName: string, answer: ToolAnswer): HookOutput;
}

/** A stop answer as the encoders read it: block (the reason for the agent), hand off (the line for the person), or allow. */
export type EncodedStop =
  | { readonly kind: 'block'; readonly reason: string; readonly warning?: string }
  | { readonly kind: 'handoff'; readonly message: string }
  | { readonly kind: 'allow'; readonly warning?: string };

/** Every host, in the order the CLI lists them. */
export const HOSTS: Readonly<Record<HookHost, HostDescription>> = Object.freeze({
  'claude-code': claudeCode,
  codex,
  cursor,
  copilot,
  gemini,
});

/** Every supported host name, in the order the CLI lists them. */
export const HOOK_HOSTS: readonly HookHost[] = Object.freeze(Object.keys(HOSTS) as HookHost[]);

/** True when `value` names a supported host. */
export function isHookHost(value: unknown): value is HookHost {
  return typeof value === 'string' && Object.hasOwn(HOSTS, value);
}
