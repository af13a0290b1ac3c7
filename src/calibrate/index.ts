/**
 * Choosing stop thresholds from labelled cases, with a guarantee: the cases,
 * Learn-then-Test on any policy's criteria thresholds, the held-out check,
 * calibration metrics and maps, live scoring and the HTML reports; and the
 * stall detector's calibration on labelled runs: its rule thresholds, or a
 * learned stall score.
 *
 * @module
 */
export { parseLabelledCases, isScoredCase } from './labelled-case.js';
export type { LabelledCase, ScoredCase } from './labelled-case.js';
export { calibrateThresholds } from './calibrate-thresholds.js';
export type { CalibrationOptions, CalibrationResult, ThresholdCalibration } from './calibrate-thresholds.js';
export { calibratedStopPolicy } from './calibrated-stop-policy.js';
export { policyThresholds } from './policy-thresholds.js';
export { certifyDoneThreshold, certifyMidBandLow, defaultThresholdGrid } from './learn-then-test.js';
export { binomialTailPValue, hoeffdingPValue, bentkusPValue, hoeffdingBentkusPValue, clopperPearsonUpper } from './risk-bounds.js';
export { splitCases } from './stratified-split.js';
export { evaluatePolicy } from './evaluate-policy.js';
export type { PolicyEvaluation } from './evaluate-policy.js';
export { thresholdCurve } from './threshold-curve.js';
export { brierScore, reliabilityBins, expectedCalibrationError } from './calibration-metrics.js';
export { fitPlatt } from './fit-platt.js';
export { fitTemperature } from './fit-temperature.js';
export { fitIsotonic } from './fit-isotonic.js';
export { applyCalibrationMap } from './calibration-map.js';
export type { CalibrationMap } from './calibration-map.js';
export { recalibrateClient } from './recalibrate-client.js';
export { scoreCases } from './score-cases.js';
export type { ScoreCasesOptions, ScoreCasesResult } from './score-cases.js';
export { openScoreCacheFile } from './score-cache-file.js';
export { createCachedClient } from '../decision-model/cached-client.js';
export { estimateDecisionModelCost } from '../decision-model/estimate-decision-model-cost.js';
export { renderCalibrationReport } from './calibration-report-html.js';
export { calibrateStallDetector } from './calibrate-stall-detector.js';
export type { StallRun, StallCalibration, StallCalibrationOptions } from './calibrate-stall-detector.js';
export { fitStallScore } from './fit-stall-score.js';
export type { StallScoreFit, StallScoreFitOptions, StallScoreFigures } from './fit-stall-score.js';
export { parseStallRuns } from './stall-run-file.js';
export { renderStallCalibrationReport } from './stall-calibration-report-html.js';
