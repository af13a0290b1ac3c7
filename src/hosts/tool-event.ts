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
/** What a tool guard answers: nothing to say, context for the agent, or a refusal with a reason it can act on. */
export type ToolGuardAnswer =
  | { readonly kind: 'none' }
  | { readonly kind: 'context'; readonly message: string }
  | { readonly kind: 'deny'; readonly reason: string };
