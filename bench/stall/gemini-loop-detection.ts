// A port of the tool-call check of Gemini CLI's LoopDetectionService
// (packages/core/src/services/loopDetectionService.ts, Apache-2.0), kept as a
// measurement anchor: a call's key is its name and its JSON arguments (key
// order kept); the last 25 keys are kept; a loop is the last 5k keys being the
// same k-cycle repeated 5 times, for a period k from 1 to 5. Once found, the
// loop stays found (the service latches until the next user prompt).

const REPEATS = 5;
const MAX_PERIOD = 5;
const KEEP = 25;

/** The state of the check: the last keys and whether a loop was found. */
export interface GeminiLoopState {
  readonly keys: readonly string[];
  readonly detected: boolean;
}

/** The state before the first call. */
export function initialGeminiLoopState(): GeminiLoopState {
  return { keys: [], detected: false };
}

/** Adds a tool call (`name`, `args`) and says whether the calls now loop. */
export function geminiAddToolCall(state: GeminiLoopState, name: string, args: unknown): GeminiLoopState {
  if (state.detected) return state;
  const keys = [...state.keys, `${name}:${JSON.stringify(args)}`].slice(-KEEP);
  for (let k = 1; k <= MAX_PERIOD; k++) {
    if (keys.length < k * REPEATS) break;
    const tail = keys.slice(keys.length - k * REPEATS);
    if (tail.every((key, i) => key === tail[i % k])) return { keys, detected: true };
  }
  return { keys, detected: false };
}
