/** The outcome of one deterministic check: `ok` with a one-line `detail` saying what was seen. */
export interface CheckResult {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}
