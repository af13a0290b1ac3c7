/** Keep the agent working: the host feeds `reason` back to it. */
export interface StopHookBlock {
  readonly decision: 'block';
  readonly reason: string;
  /** A warning for the person, when something went wrong on the way (the decision model was down). */
  readonly systemMessage?: string;
}

/** Let the agent stop and tell the person why they should look (a hand-off). */
export interface StopHookHandoff {
  readonly systemMessage: string;
}

/** What a stop hook answers: block, hand off, or `undefined` to let the stop go ahead silently. */
export type StopHookDecision = StopHookBlock | StopHookHandoff | undefined;

/**
 * What the decision model said about the turn, as `checkCompletion` reports
 * it. An `Error` stands for a model that could not be asked (down, timed out,
 * answered garbage); `undefined` for a model that was not asked.
 */
export type StopHookCheck =
  | {
      readonly modelSaysDone: boolean;
      readonly probabilities: Readonly<Record<string, number>>;
      readonly model?: string;
    }
  | Error
  | undefined;

/** True for a decision that blocks the stop. */
export function isStopHookBlock(decision: StopHookDecision): decision is StopHookBlock {
  return decision !== undefined && 'decision' in decision && decision.decision === 'block';
}
