/** The decision-model clients a plain configuration can name. */
export const DECISION_MODEL_CLIENTS = ['system-one', 'openai-compatible', 'ai-sdk'] as const;

/** A decision-model client a plain configuration can name. */
export type DecisionModelClientName = (typeof DECISION_MODEL_CLIENTS)[number];
