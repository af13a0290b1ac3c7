/** A description in a question: a string, an object, an array or null. */
export type CriterionText = string | object | null;

/** What a yes/no question says when true and when false. */
export interface BooleanCriteria {
  readonly true?: CriterionText;
  readonly false?: CriterionText;
}

/** A yes/no question for a decision model; answered with P(true). Plain data. */
export interface BooleanQuestion {
  readonly type: 'boolean';
  readonly instructions: string;
  readonly criteria?: BooleanCriteria;
}

/** Named questions about one state; at least one. */
export type DecisionModelQuestions = Readonly<Record<string, BooleanQuestion>>;

/** What a decision model judges: a string, an object or an array (one state, not a batch). */
export type DecisionModelState = string | object;

/** One request to a decision model: one state and its questions. */
export interface DecisionModelRequest {
  readonly state: DecisionModelState;
  readonly questions: DecisionModelQuestions;
}

/** Per-call options. */
export interface DecisionModelCallOptions {
  readonly signal?: AbortSignal;
}

/**
 * Tokens a decision model reported for one request. Open to other fields, so
 * that a client reporting usage in its own shape still fits.
 */
export interface DecisionModelUsage {
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  /** What the request cost, when the client knows its price: it counts toward the run's `decisionModelCost`. */
  readonly cost?: number;
  readonly [field: string]: unknown;
}

/** One answer: P(true) for a yes/no question. */
export interface DecisionModelAnswer {
  readonly probability: number;
}

/** A decision model's answers: P(true) per asked question, and the model that answered. */
export interface DecisionModelResult {
  readonly answers: Readonly<Record<string, DecisionModelAnswer>>;
  readonly model: string;
  readonly usage?: DecisionModelUsage;
}

/**
 * A decision model client. Structural: any object with this `evaluate` method
 * fits, including a client of the System One TypeScript SDK.
 */
export interface DecisionModelClient {
  evaluate(request: DecisionModelRequest, options?: DecisionModelCallOptions): Promise<DecisionModelResult>;
}
