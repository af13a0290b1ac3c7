/**
 * One scripted model turn, answered to one main request of the host (a
 * request that offers the host's shell tool):
 * - `shell`: call the host's own shell tool with this command line;
 * - `tool`: call any tool the host offers, with a raw input;
 * - `text`: say this and end the turn.
 * `say` is text the model writes before its tool call.
 */
export type ModelTurn =
  | { readonly shell: string; readonly say?: string }
  | { readonly tool: string; readonly input: Readonly<Record<string, unknown>>; readonly say?: string }
  | { readonly text: string };

/** What every main request gets once the script has run out. */
export const SCRIPT_EXHAUSTED_TEXT = 'Done (script exhausted).';

/** A main request's turn when the script has run out. */
export const EXHAUSTED_TURN: ModelTurn = Object.freeze({ text: SCRIPT_EXHAUSTED_TEXT });

/** A tool call of a turn, as the protocols write it: the tool's name and its input. */
export interface ToolCall {
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
}
