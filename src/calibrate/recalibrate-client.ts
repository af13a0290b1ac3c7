import type { DecisionModelCallOptions, DecisionModelClient, DecisionModelRequest, DecisionModelResult } from '../decision-model/decision-model-client.js';
import { DecisionModelError } from '../decision-model/decision-model-error.js';
import { applyCalibrationMap, assertCalibrationMap, type CalibrationMap } from './calibration-map.js';
import { setOwnProperty } from '../core/own-property.js';

/**
 * Wraps any decision-model client so that every probability it answers passes
 * through a fitted recalibration map (one map for every question, or one per
 * question name; questions without a map pass unchanged). The maps are
 * non-decreasing, so with one map for every question the lowest criterion
 * stays the lowest (per-question maps may reorder them). An answer that is
 * not a probability becomes an `DecisionModelError` of kind `invalid_response`.
 *
 * @example
 * const calibrated = recalibrateClient(client, fitPlatt(cases).map);
 * const { answers } = await calibrated.evaluate({ state, questions: doneCriteria });
 */
export function recalibrateClient(
  client: DecisionModelClient,
  maps: CalibrationMap | Readonly<Record<string, CalibrationMap>>,
): DecisionModelClient {
  const single = isCalibrationMap(maps);
  if (single) assertCalibrationMap(maps);
  else for (const map of Object.values(maps)) assertCalibrationMap(map);
  return {
    async evaluate(request: DecisionModelRequest, options?: DecisionModelCallOptions): Promise<DecisionModelResult> {
      const result = await client.evaluate(request, options);
      const answers: Record<string, { probability: number }> = {};
      for (const [name, answer] of Object.entries(result.answers)) {
        const map = single ? maps : (maps as Readonly<Record<string, CalibrationMap>>)[name];
        const probability = answer?.probability;
        if (typeof probability !== 'number' || !(probability >= 0 && probability <= 1)) {
          throw new DecisionModelError(
            'invalid_response',
            `question "${name}" was answered with ${String(probability)}, not a probability`,
          );
        }
        setOwnProperty(answers, name, { probability: map === undefined ? probability : applyCalibrationMap(map, probability) });
      }
      return { ...result, answers };
    },
  };
}

function isCalibrationMap(value: unknown): value is CalibrationMap {
  const kind = (value as { kind?: unknown } | null)?.kind;
  return kind === 'platt' || kind === 'temperature' || kind === 'isotonic';
}
