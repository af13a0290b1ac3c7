// The contract every decision-model client passes, whatever carries its
// answers: a script, the System One API, or a chat endpoint's logprobs.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { booleanQuestion, doneCriteria } from '../../src/decision-model/boolean-question.js';
import { checkCompletion } from '../../src/decision-model/check-completion.js';
import { decideCompletionAfterEvaluate } from '../../src/decision-model/decide-completion-after-evaluate.js';
import type { DecisionModelClient, DecisionModelQuestions } from '../../src/decision-model/decision-model-client.js';
import { rejection } from './caught-errors.js';
import { MISSING, NAN, type WireValue } from './loopback-server.js';

/** A client under test, and a way to decide what its model answers next. */
export interface ContractHarness {
  readonly client: DecisionModelClient;
  /** The values the model answers with from now on, per question name (absent names are answered 0.5). */
  answerWith(values: Readonly<Record<string, WireValue>>): void;
  /** How many model calls were made so far (requests or script calls). */
  calls(): number;
  close(): Promise<void>;
}

const FIVE: DecisionModelQuestions = {
  acceptanceCovered: doneCriteria.acceptanceCovered!,
  noOpenQuestions: doneCriteria.noOpenQuestions!,
  docsUpdated: booleanQuestion('Does the output update the docs for every changed public name?'),
  noRegression: booleanQuestion('Does the output avoid changing behaviour outside the task?'),
  changelogEntry: booleanQuestion('Does the output add a changelog entry for the change?'),
};

const PASSING = { passed: true, failed: [], ran: 12 } as const;
const INPUT = {
  task: 'Add a --json flag to the report command',
  output: 'Added --json; it prints the same rows as JSON. Tests cover it.',
  acceptance: ['--json prints valid JSON', 'the default output is unchanged'],
  tests: PASSING,
};

/** Runs the shared contract against the clients that `start` makes. */
export function describeDecisionModelClientContract(name: string, start: () => Promise<ContractHarness>): void {
  describe(`${name}: the DecisionModelClient contract`, () => {
    let harness: ContractHarness;
    beforeEach(async () => {
      harness = await start();
    });
    afterEach(async () => {
      await harness.close();
    });

    it('answers every asked question, and only those, with P(true), naming the model', async () => {
      harness.answerWith({ acceptanceCovered: 0.83, noOpenQuestions: 0.12 });
      const result = await harness.client.evaluate({ state: { output: 'x' }, questions: doneCriteria });
      expect(Object.keys(result.answers).sort()).toEqual(['acceptanceCovered', 'noOpenQuestions']);
      expect(result.answers.acceptanceCovered?.probability).toBeCloseTo(0.83, 9);
      expect(result.answers.noOpenQuestions?.probability).toBeCloseTo(0.12, 9);
      expect(typeof result.model).toBe('string');
      expect(result.model.length).toBeGreaterThan(0);
    });

    it('answers the extremes 0 and 1', async () => {
      harness.answerWith({ acceptanceCovered: 0, noOpenQuestions: 1 });
      const result = await harness.client.evaluate({ state: 'a string state', questions: doneCriteria });
      expect(result.answers.acceptanceCovered?.probability).toBe(0);
      expect(result.answers.noOpenQuestions?.probability).toBe(1);
    });

    it('works with one question and with five', async () => {
      harness.answerWith({ acceptanceCovered: 0.9 });
      const one = await harness.client.evaluate({
        state: ['an', 'array', 'state'],
        questions: { acceptanceCovered: doneCriteria.acceptanceCovered! },
      });
      expect(Object.keys(one.answers)).toEqual(['acceptanceCovered']);
      harness.answerWith({ acceptanceCovered: 0.9, noOpenQuestions: 0.8, docsUpdated: 0.7, noRegression: 0.6, changelogEntry: 0.05 });
      const five = await harness.client.evaluate({ state: {}, questions: FIVE });
      expect(Object.keys(five.answers).sort()).toEqual(Object.keys(FIVE).sort());
      expect(five.answers.changelogEntry?.probability).toBeCloseTo(0.05, 9);
    });

    it('rejects a missing answer with invalid_response', async () => {
      harness.answerWith({ acceptanceCovered: 0.9, noOpenQuestions: MISSING });
      const error = await rejection(harness.client.evaluate({ state: {}, questions: doneCriteria }));
      expect(error.kind).toBe('invalid_response');
    });

    for (const [label, value] of [
      ['1.5', 1.5],
      ['NaN', NAN],
      ['a string', '0.9'],
      ['a negative number', -0.2],
    ] as const) {
      it(`rejects a probability of ${label} with invalid_response`, async () => {
        harness.answerWith({ acceptanceCovered: value, noOpenQuestions: 0.9 });
        const error = await rejection(harness.client.evaluate({ state: {}, questions: doneCriteria }));
        expect(error.kind).toBe('invalid_response');
        expect(error.retryable).toBe(false);
      });
    }

    it('rejects with aborted when the signal is already aborted', async () => {
      harness.answerWith({ acceptanceCovered: 0.9, noOpenQuestions: 0.9 });
      const error = await rejection(
        harness.client.evaluate({ state: {}, questions: doneCriteria }, { signal: AbortSignal.abort() }),
      );
      expect(error.kind).toBe('aborted');
    });

    it('drives checkCompletion and decideCompletionAfterEvaluate to a decision', async () => {
      harness.answerWith({ acceptanceCovered: 0.91, noOpenQuestions: 0.88 });
      const check = await checkCompletion(harness.client, INPUT);
      expect(check).toMatchObject({ done: true, reason: 'tests_and_criteria_passed', modelSaysDone: true });
      expect(check.probabilities.acceptanceCovered).toBeCloseTo(0.91, 9);
      const action = await decideCompletionAfterEvaluate(harness.client, { ...INPUT, loop: { step: 3, recentFingerprints: [] } });
      expect(action).toMatchObject({ action: 'stop_done', rule: 6, evaluated: true });
      harness.answerWith({ acceptanceCovered: 0.55, noOpenQuestions: 0.88 });
      const midBand = await decideCompletionAfterEvaluate(harness.client, { ...INPUT, loop: { step: 3, recentFingerprints: [] } });
      expect(midBand).toMatchObject({ action: 'retry', reason: 'criteria_mid_band', evaluated: true });
    });

    it('is not asked when the evidence decides', async () => {
      harness.answerWith({ acceptanceCovered: 0.99, noOpenQuestions: 0.99 });
      const before = harness.calls();
      const action = await decideCompletionAfterEvaluate(harness.client, {
        ...INPUT,
        tests: { passed: false, failed: [], ran: 0 },
        loop: { step: 3, recentFingerprints: [] },
      });
      expect(action).toEqual({ action: 'retry', reason: 'no_tests_ran', rule: 3, values: { step: 3, ran: 0 }, evaluated: false });
      expect(harness.calls()).toBe(before);
    });

    it('turns no bad answer into a decision', async () => {
      harness.answerWith({ acceptanceCovered: 1.5, noOpenQuestions: 0.99 });
      await rejection(checkCompletion(harness.client, INPUT));
      await rejection(decideCompletionAfterEvaluate(harness.client, { ...INPUT, loop: { step: 3, recentFingerprints: [] } }));
    });
  });
}
