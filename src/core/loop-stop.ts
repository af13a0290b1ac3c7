import type { BudgetLimitKind } from './budget.js';

/** Why a refusal happened, as a provider explained it. */
export interface RefusalDetails {
  readonly category: string | null;
  readonly explanation: string | null;
}

/**
 * How one generation says the loop should stop, in the loop's own words:
 * `done` (a claim, with a summary), `out_of_budget` (which limit), `blocked`
 * (why), `need_help` (the question for a person) or `failed` (what broke).
 */
export type LoopStop =
  | { readonly kind: 'done'; readonly summary: string }
  | { readonly kind: 'out_of_budget'; readonly limit: BudgetLimitKind }
  | { readonly kind: 'blocked'; readonly reason: string; readonly refusal?: RefusalDetails }
  | { readonly kind: 'need_help'; readonly question: string }
  | { readonly kind: 'failed'; readonly error: string };
