import type { EvaluationClient, EvaluationRequest } from '../../../src/judge/evaluation-client.js';

/** A decision-model client that answers from a list, call by call, and records every request. */
export function answeringClient(script: ReadonlyArray<Readonly<Record<string, number>> | Error>): EvaluationClient & {
  readonly calls: EvaluationRequest[];
} {
  const calls: EvaluationRequest[] = [];
  return {
    calls,
    async evaluate(request) {
      calls.push(request);
      const entry = script[calls.length - 1];
      if (entry === undefined) throw new Error(`no scripted answer for call ${calls.length}`);
      if (entry instanceof Error) throw entry;
      const answers = Object.fromEntries(Object.entries(entry).map(([name, probability]) => [name, { probability }]));
      return { answers, model: 'scripted-judge' };
    },
  };
}
