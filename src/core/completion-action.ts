/**
 * The action a completion check decides on, tagged by `action` and `reason`,
 * with the number of the rule that fired (1 to 8, as in the action table) and
 * the values that rule compared.
 */
export type CompletionAction = StopDoneAction | RetryAction | HandoffHumanAction;

/** Stop: tests passed and every criterion is at or above the done threshold. */
export interface StopDoneAction {
  readonly action: 'stop_done';
  readonly reason: 'tests_and_criteria_passed';
  readonly rule: 6;
  readonly values: JudgedValues;
}

/** Run another step. */
export type RetryAction =
  | { readonly action: 'retry'; readonly reason: 'no_tests_ran'; readonly rule: 3; readonly values: NoTestsValues }
  | { readonly action: 'retry'; readonly reason: 'tests_failed'; readonly rule: 5; readonly values: FailedTestsValues }
  | { readonly action: 'retry'; readonly reason: 'criteria_mid_band'; readonly rule: 7; readonly values: JudgedValues };

/** Stop and hand the run to a person. */
export type HandoffHumanAction =
  | { readonly action: 'handoff_human'; readonly reason: 'hard_cap'; readonly rule: 1; readonly values: HardCapValues }
  | { readonly action: 'handoff_human'; readonly reason: 'stalled'; readonly rule: 2; readonly values: StalledValues }
  | {
      readonly action: 'handoff_human';
      readonly reason: 'evidence_contradicts_model';
      readonly rule: 4;
      readonly values: FailedTestsValues;
    }
  | { readonly action: 'handoff_human'; readonly reason: 'criteria_low'; readonly rule: 8; readonly values: JudgedValues };

/** The action kinds. */
export type CompletionActionKind = CompletionAction['action'];
/** Every reason an action can carry. */
export type CompletionReason = CompletionAction['reason'];

/** The actions that rules 1 to 3 decide from evidence and loop state alone. */
export type EvidenceAction = Extract<CompletionAction, { rule: 1 | 2 | 3 }>;

/** Values behind rule 1. */
export interface HardCapValues {
  readonly step: number;
  readonly maxSteps: number;
}

/** Values behind rule 2: the fingerprint repeated `stallRounds` times in a row. */
export interface StalledValues {
  readonly step: number;
  readonly stallRounds: number;
  readonly fingerprint: string;
}

/** Values behind rule 3. */
export interface NoTestsValues {
  readonly step: number;
  readonly ran: 0;
}

/** Values behind the rules that read the criterion probabilities. */
export interface JudgedValues {
  readonly step: number;
  readonly ran: number;
  /** The lowest criterion probability (1 when there are no criteria). */
  readonly lowestProbability: number;
  /** The criterion that is lowest; absent when there are no criteria. */
  readonly lowestCriterion?: string;
  readonly doneThreshold: number;
  readonly midBandLow: number;
}

/** Values behind rules 4 and 5: the judged values plus the failed test names. */
export interface FailedTestsValues extends JudgedValues {
  readonly failed: readonly string[];
}
