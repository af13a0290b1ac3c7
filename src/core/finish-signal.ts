/** The three intents a model can signal through the `finish` tool. */
export const FINISH_KINDS = ['done', 'give_up', 'need_help'] as const;

/** One of {@link FINISH_KINDS}. */
export type FinishKind = (typeof FINISH_KINDS)[number];

/**
 * What the model says through the `finish` tool: `done` is a claim that code
 * still has to verify, `give_up` explains what was tried, `need_help` asks a
 * person a question. Plain data.
 */
export interface FinishSignal {
  readonly kind: FinishKind;
  readonly note: string;
}
