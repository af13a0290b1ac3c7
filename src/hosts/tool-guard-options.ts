import { describeValue } from '../core/describe-value.js';
import { resolveStallOptions, STALL_OPTION_PATTERN_KEYS, type StallOptions, type StallOptionsInput, type ToolIdentity } from '../core/stall-detection/stall-options.js';

/**
 * The escalation ladder of a tool guard, the same on every host: the first
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

/** What a tool guard runs with: whether it is on, its ladder and the stall detector's options. */
export interface ToolGuardOptions {
  readonly enabled: boolean;
  readonly ladder: ToolGuardLadder;
  readonly stall: StallOptions;
}

/**
 * What identifies the calls of the tools the hosts name, by default: a shell
 * call by its command alone (not its description or timeout), and the tools
 * that read a background shell's output as polling tools, whose repeated calls
 * are expected.
 */
export const DEFAULT_TOOL_IDENTITIES: Readonly<Record<string, ToolIdentity>> = Object.freeze({
  Bash: Object.freeze({ arguments: Object.freeze(['command']) }),
  BashOutput: Object.freeze({ polling: true }),
  TaskOutput: Object.freeze({ polling: true }),
});

/** The ladder without configuration: one nudge, one refusal, then a hand-off at the next stop. */
export const DEFAULT_TOOL_GUARD_LADDER: ToolGuardLadder = Object.freeze({ nudges: 1, refusals: 1, handOff: true });

/** The guard without configuration: on, the default ladder, the detector's defaults with the default tool identities. */
export const DEFAULT_TOOL_GUARD_OPTIONS: ToolGuardOptions = Object.freeze({
  enabled: true,
  ladder: DEFAULT_TOOL_GUARD_LADDER,
  stall: resolveStallOptions({ tools: DEFAULT_TOOL_IDENTITIES }),
});

const TOP_KEYS = ['enabled', 'ladder', 'stall'] as const;
const LADDER_KEYS = ['nudges', 'refusals', 'handOff'] as const;
const STALL_KEYS: readonly string[] = [...STALL_OPTION_PATTERN_KEYS, 'inferErrors', 'tools'];
const IDENTITY_KEYS = ['arguments', 'polling'] as const;
/** The most nudges or refusals a ladder may have. */
const MAX_RUNG = 100;

/**
 * Reads the `toolGuard` key of `stopwise.config.json` (absent: the defaults).
 * Tool identities given in `stall.tools` are laid over the default ones.
 * Never throws: a problem comes back as lines that name the key.
 *
 * @example
 * parseToolGuardOptions({ ladder: { nudges: 2 }, stall: { repeatedFailingCall: { repeats: 4 } } });
 * // { ok: true, options: { enabled: true, ladder: { nudges: 2, refusals: 1, handOff: true }, stall: { ... } } }
 */
export function parseToolGuardOptions(
  value: unknown,
): { readonly ok: true; readonly options: ToolGuardOptions } | { readonly ok: false; readonly message: string } {
  if (value === undefined) return { ok: true, options: DEFAULT_TOOL_GUARD_OPTIONS };
  const problems: string[] = [];
  if (!isRecord(value)) return { ok: false, message: `toolGuard: expected an object, got ${describeValue(value)}` };
  unknownKeys('toolGuard', value, TOP_KEYS, problems);
  const enabled = value.enabled ?? true;
  if (typeof enabled !== 'boolean') problems.push(`toolGuard.enabled: expected a boolean, got ${describeValue(enabled)}`);

  let ladder = DEFAULT_TOOL_GUARD_LADDER;
  if (value.ladder !== undefined) {
    if (!isRecord(value.ladder)) problems.push(`toolGuard.ladder: expected an object, got ${describeValue(value.ladder)}`);
    else {
      const given = value.ladder;
      unknownKeys('toolGuard.ladder', given, LADDER_KEYS, problems);
      const rung = (key: 'nudges' | 'refusals'): number => {
        const number = given[key] ?? DEFAULT_TOOL_GUARD_LADDER[key];
        if (typeof number !== 'number' || !Number.isInteger(number) || number < 0 || number > MAX_RUNG) {
          problems.push(`toolGuard.ladder.${key}: must be an integer from 0 to ${MAX_RUNG}, got ${describeValue(number)}`);
          return DEFAULT_TOOL_GUARD_LADDER[key];
        }
        return number;
      };
      const handOff = given.handOff ?? DEFAULT_TOOL_GUARD_LADDER.handOff;
      if (typeof handOff !== 'boolean') problems.push(`toolGuard.ladder.handOff: expected a boolean, got ${describeValue(handOff)}`);
      ladder = { nudges: rung('nudges'), refusals: rung('refusals'), handOff: handOff === true };
    }
  }

  let stall = DEFAULT_TOOL_GUARD_OPTIONS.stall;
  if (value.stall !== undefined) {
    if (!isRecord(value.stall)) problems.push(`toolGuard.stall: expected an object, got ${describeValue(value.stall)}`);
    else {
      unknownKeys('toolGuard.stall', value.stall, STALL_KEYS, problems);
      const tools = toolIdentities(value.stall.tools, problems);
      try {
        stall = resolveStallOptions({ ...(value.stall as StallOptionsInput), tools: { ...DEFAULT_TOOL_IDENTITIES, ...tools } });
      } catch (error) {
        problems.push(`toolGuard.stall: ${(error as Error).message}`);
      }
    }
  }
  if (problems.length > 0) return { ok: false, message: problems.join('\n') };
  return { ok: true, options: { enabled: enabled === true, ladder, stall } };
}

function toolIdentities(value: unknown, problems: string[]): Record<string, ToolIdentity> {
  if (value === undefined) return {};
  if (!isRecord(value)) {
    problems.push(`toolGuard.stall.tools: expected an object of tool names, got ${describeValue(value)}`);
    return {};
  }
  const tools: Record<string, ToolIdentity> = {};
  for (const [name, identity] of Object.entries(value)) {
    const where = `toolGuard.stall.tools.${name}`;
    if (!isRecord(identity)) {
      problems.push(`${where}: expected an object, got ${describeValue(identity)}`);
      continue;
    }
    unknownKeys(where, identity, IDENTITY_KEYS, problems);
    const { arguments: keys, polling } = identity;
    if (keys !== undefined && !(Array.isArray(keys) && keys.every((key) => typeof key === 'string'))) {
      problems.push(`${where}.arguments: expected an array of input keys, got ${describeValue(keys)}`);
    }
    if (polling !== undefined && typeof polling !== 'boolean') problems.push(`${where}.polling: expected a boolean, got ${describeValue(polling)}`);
    tools[name] = {
      ...(Array.isArray(keys) ? { arguments: keys.filter((key): key is string => typeof key === 'string') } : {}),
      ...(typeof polling === 'boolean' ? { polling } : {}),
    };
  }
  return tools;
}

function unknownKeys(where: string, record: Record<string, unknown>, known: readonly string[], problems: string[]): void {
  for (const key of Object.keys(record)) {
    if (!known.includes(key)) problems.push(`${where}: unknown key "${key}"; expected ${known.join(', ')}`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
