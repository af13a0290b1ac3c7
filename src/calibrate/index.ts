export { parseLabelledCases, formatLabelledCaseError, isScoredCase } from './labelled-case.js';
export type {
  CaseLabel,
  CaseTests,
  LabelledCase,
  ScoredCase,
  LabelledCaseError,
  LabelledCasesResult,
} from './labelled-case.js';
export type { LineError } from '../input/line-fields.js';
export { calibrateThresholds } from './calibrate-thresholds.js';
export type {
  CalibrationOptions,
  CalibrationResult,
  ThresholdCalibration,
  HeldOutConfirmation,
  CasesNeeded,
} from './calibrate-thresholds.js';
export { certifyDoneThreshold, certifyMidBandLow, defaultThresholdGrid } from './learn-then-test.js';
export type {
  RiskKind,
  PValueMethod,
  ThresholdTest,
  DoneThresholdCertificate,
  MidBandTest,
  MidBandCertificate,
} from './learn-then-test.js';
export {
  binomialTailPValue,
  hoeffdingPValue,
  bentkusPValue,
  hoeffdingBentkusPValue,
  clopperPearsonUpper,
} from './risk-bounds.js';
export { splitCases } from './stratified-split.js';
export type { CaseSplit } from './stratified-split.js';
export { createSeededRandom } from './seeded-random.js';
export type { RandomSource } from './seeded-random.js';
export { caseOutcome, decideCaseAction, ASSUMED_PASSING_TESTS } from './case-outcome.js';
export type { CaseOutcome, CaseEvidence } from './case-outcome.js';
export { evaluatePolicy } from './evaluate-policy.js';
export type { PolicyEvaluation, LabelCounts } from './evaluate-policy.js';
export { thresholdCurve } from './threshold-curve.js';
export type { ThresholdCurvePoint } from './threshold-curve.js';
export { brierScore, reliabilityBins, expectedCalibrationError } from './calibration-metrics.js';
export type { ProbabilityCase, ReliabilityBin } from './calibration-metrics.js';
export { applyCalibrationMap, assertCalibrationMap } from './calibration-map.js';
export type { CalibrationMap, CalibrationFit } from './calibration-map.js';
export { fitPlatt } from './fit-platt.js';
export type { PlattMap } from './fit-platt.js';
export { fitTemperature } from './fit-temperature.js';
export type { TemperatureMap } from './fit-temperature.js';
export { fitIsotonic } from './fit-isotonic.js';
export type { IsotonicMap } from './fit-isotonic.js';
export { recalibrateClient } from './recalibrate-client.js';
export { scoreCases, stopOnRepeatedFailures } from './score-cases.js';
export type {
  ScoreCache,
  CachedScore,
  ScoreProgress,
  ScoreFailure,
  ScoreCasesOptions,
  ScoreCasesResult,
} from './score-cases.js';
export { openScoreCacheFile } from './score-cache-file.js';
export type { ScoreCacheFile } from './score-cache-file.js';
export { renderCalibrationReport } from './calibration-report-html.js';
export type { CalibrationReportInput } from './calibration-report-html.js';
export { calibrateStallDetector } from './calibrate-stall-detector.js';
export type {
  StallRun,
  StallCalibrationOptions,
  StallCalibration,
  StallCalibrationFigures,
  StallPatternFigures,
} from './calibrate-stall-detector.js';
export { parseStallRuns } from './stall-run-file.js';
export type { StallRunsResult } from './stall-run-file.js';
export { renderStallCalibrationReport } from './stall-calibration-report-html.js';
export type { StallCalibrationReportInput } from './stall-calibration-report-html.js';
export { describeStallOptions, stallCalibrationSentences, minimumSuccessRuns } from './describe-stall-calibration.js';
export type { StallCalibrationTarget, StallOptionRow, StallOptionKey } from './describe-stall-calibration.js';
