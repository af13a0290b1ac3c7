// The threshold walk as it was before calibration decided cases through the stop engine: the baseline of the
// calibrate bench, kept as code. Each case is reduced once to its lowest criterion probability and its class of
// test evidence (the seed's action table read by hand), and the walk counts the cases at or above each
// threshold in one pass over them sorted by score. It holds for the seed preset's table only; calibration now
// takes any policy document.
import type { ScoredCase } from '../src/calibrate/labelled-case.js';
import { binomialTailPValue, hoeffdingBentkusPValue } from '../src/calibrate/risk-bounds.js';
import { minCriterionProbability } from '../src/core/criterion-probabilities.js';
import { noTestsRan, testsFailed } from '../src/core/test-evidence.js';

interface CaseOutcome {
  readonly score: number;
  readonly evidence: 'passed' | 'failed' | 'none';
  readonly done: boolean;
}

const PASSING = { passed: true, failed: [] as string[], ran: 1 };

function caseOutcome(labelled: ScoredCase): CaseOutcome {
  const tests = labelled.tests ?? PASSING;
  const evidence = noTestsRan(tests) ? 'none' : testsFailed(tests) ? 'failed' : 'passed';
  return { score: minCriterionProbability(labelled.probabilities), evidence, done: labelled.label === 'done' };
}

/** The lowest threshold of `grid` (walked from the top) whose false-done risk test passes, as the old walk found it; joint risk, exact p-values. */
export function baselineThresholdWalk(cases: readonly ScoredCase[], options: { readonly alpha: number; readonly delta: number; readonly grid: readonly number[] }): number | null {
  const outcomes = cases.map(caseOutcome);
  const grid = [...new Set(options.grid)].sort((a, b) => b - a);
  const eligible = outcomes.filter((outcome) => outcome.evidence === 'passed').sort((a, b) => b.score - a.score);
  let falseDones = 0;
  let cursor = 0;
  let lowest: number | null = null;
  for (const threshold of grid) {
    while (cursor < eligible.length && (eligible[cursor] as CaseOutcome).score >= threshold) {
      if (!(eligible[cursor] as CaseOutcome).done) falseDones++;
      cursor++;
    }
    const n = outcomes.length;
    const exact = binomialTailPValue(falseDones, n, options.alpha);
    // The old walk computed both p-values at every threshold.
    if (n > 0) hoeffdingBentkusPValue(falseDones / n, n, options.alpha);
    if (exact > options.delta) break;
    lowest = threshold;
  }
  return lowest;
}
