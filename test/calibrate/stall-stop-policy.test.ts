import { describe, expect, it } from 'vitest';
import type { StallRun } from '../../src/calibrate/calibrate-stall-detector.js';
import { fitStallScore } from '../../src/calibrate/fit-stall-score.js';
import { withStallRule } from '../../src/calibrate/stall-stop-policy.js';
import { decide, initialStopState } from '../../src/core/policy/decide.js';
import { parseStopPolicy } from '../../src/core/policy/parse-stop-policy.js';
import type { StopDecision } from '../../src/core/policy/stop-decision.js';
import type { StopPolicyDocument } from '../../src/core/policy/stop-policy-document.js';
import { DEFAULT_STALL_OPTIONS, type StallScoreModel } from '../../src/core/stall-detection/stall-options.js';
import { labelledStallRuns } from '../fixtures/stall-runs/labelled-stall-runs.js';

const BASE: StopPolicyDocument = parseStopPolicy({
  version: 2,
  rules: [
    { id: 'cap', when: { limit: { of: 'steps', max: 200 } }, then: { kind: 'stop', exit: 'limit', reason: 'step_cap' } },
    { id: 'stalled_score', when: { signal: 'give_up' }, then: { kind: 'stop', exit: 'gave_up', reason: 'gave_up' } },
    { id: 'more', when: { always: true }, then: { kind: 'continue' } },
  ],
});

// Each step of a run as one event of the policy: the decisions, up to the first stop.
function decisions(policy: StopPolicyDocument, run: StallRun): StopDecision[] {
  let state = initialStopState(policy);
  const out: StopDecision[] = [];
  for (const [i, step] of run.steps.entries()) {
    const result = decide(policy, state, { step: i + 1, steps: [step] });
    state = result.state;
    out.push(result.decision);
    if (result.decision.kind === 'stop') break;
  }
  return out;
}

const runs = labelledStallRuns();
const fitted = fitStallScore(runs, { maxFalseAlarm: 0.05 });

describe('withStallRule', () => {
  it('adds the learned score as a rule after the leading limit rules, with an id of its own, and the document survives JSON', () => {
    expect(fitted.certified).toBe(true);
    const policy = withStallRule(BASE, { model: fitted.model });
    expect(policy.rules.map((rule) => rule.id)).toEqual(['cap', 'stalled_score_2', 'stalled_score', 'more']);
    expect(policy.rules[1]).toMatchObject({ when: { stall: { detector: 'score', model: fitted.model } }, then: { kind: 'stop', exit: 'need_help', reason: 'stalled' } });
    expect(parseStopPolicy(JSON.parse(JSON.stringify(policy)))).toEqual(policy);
    // The base is not changed.
    expect(BASE.rules).toHaveLength(3);
  });

  it('stops the wasted runs for a person at the step the score reaches its threshold, and lets the successful runs go on', () => {
    const policy = parseStopPolicy(JSON.parse(JSON.stringify(withStallRule(BASE, { model: fitted.model }))));
    let caught = 0;
    for (const run of runs) {
      const last = decisions(policy, run).at(-1);
      if (run.label === 'success') {
        expect(last?.kind).toBe('continue');
        continue;
      }
      if (last?.kind !== 'stop') continue;
      caught++;
      expect(last).toMatchObject({ rule: 'stalled_score_2', exit: 'need_help', reason: 'stalled' });
      expect(last.values.stallScore).toBeGreaterThanOrEqual(fitted.model.threshold ?? Number.NaN);
      expect(last.values.stallMessage).toMatch(/^The last 10 steps look stalled \(learned stall score 0\.\d\d, at or above 0\.\d\d: mostly .+\); change the approach or ask for help\.$/);
    }
    // The model's own figures on the same runs, through the policy.
    expect(caught).toBe(fitted.fit.wastedCaught + fitted.calibration.wastedCaught);
    expect(caught).toBeGreaterThan(0);
  });

  it('writes a rule that never holds for a model with no certified threshold, and says so in the trace', () => {
    const never: StallScoreModel = { ...fitted.model, threshold: null };
    const policy = withStallRule(BASE, { model: never });
    const wasted = runs.find((run) => run.label === 'wasted') as StallRun;
    const all = decisions(policy, wasted);
    expect(all.every((decision) => decision.kind === 'continue')).toBe(true);
    expect(all.at(-1)?.trace.find((entry) => entry.rule === 'stalled_score_2')?.unmet.relation).toMatch(/never stops/);
  });

  it("adds the rule patterns' options as a step-history rule", () => {
    const policy = withStallRule(BASE, { options: DEFAULT_STALL_OPTIONS });
    expect(policy.rules[1]).toMatchObject({ id: 'stalled_steps', when: { stall: { detector: 'step_history', options: DEFAULT_STALL_OPTIONS } } });
    const repeated = runs[3] as StallRun;
    expect(repeated.label).toBe('wasted');
    expect(decisions(policy, repeated).at(-1)).toMatchObject({ kind: 'stop', rule: 'stalled_steps', exit: 'need_help' });
  });
});
