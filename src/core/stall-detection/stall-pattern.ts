/**
 * The stall patterns, most specific first (the order in which a step's findings
 * are reported).
 */
export const STALL_PATTERNS = [
  'repeated-result',
  'repeated-failing-call',
  'repeated-error',
  'cycle',
  'revisit',
  'repeated-pair',
  'no-progress',
  'monologue',
  'repeated-call',
  'infrastructure-errors',
] as const;

/** The name of one stall pattern. */
export type StallPattern = (typeof STALL_PATTERNS)[number];
