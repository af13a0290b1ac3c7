export { appendOutcomeRecord } from './append-outcome-record.js';
export type { AppendOutcomeFields } from './append-outcome-record.js';
export { parseOutcomeRecords, createOutcomeRecordReader, mergeOutcomeSegments } from './parse-outcome-records.js';
export type { ParseOutcomeRecordsOptions, OutcomeRecordsResult, OutcomeRecordReader, OutcomeSegment, SkippedLines } from './parse-outcome-records.js';
export { readOutcomeRecordsFile } from './read-outcome-records-file.js';
export type { OutcomeRecordsFile } from './read-outcome-records-file.js';
export { LIMIT_KINDS } from './reported-run.js';
export type { ReportedRun, ReportedOutcome, HumanWait } from './reported-run.js';
export { buildOutcomeReport } from './outcome-report.js';
export type { OutcomeReport, OutcomeReportOptions } from './outcome-report.js';
export { limitShareAlerts, bucketStart, BUCKET_WIDTHS } from './limit-share-alerts.js';
export type {
  BucketWidth,
  LimitShareOptions,
  LimitShareSettings,
  LimitShareBucket,
  LimitShareAlert,
  LimitShareReport,
} from './limit-share-alerts.js';
export { predictiveBand } from './beta-binomial-band.js';
export type { PredictiveBand } from './beta-binomial-band.js';
export { reviewQueue } from './review-queue.js';
export type { ReviewItem } from './review-queue.js';
export { summarizeHumanWaits } from './human-waits.js';
export type { HumanWaitSummary } from './human-waits.js';
export { renderOutcomeReport } from './outcome-report-html.js';
export type { OutcomeReportPageInput } from './outcome-report-html.js';
export { formatLineError } from '../input/line-fields.js';
export type { LineError } from '../input/line-fields.js';
export { toOutcomeRecord } from '../core/outcome-record.js';
export type { OutcomeRecord, OutcomeRecordFields, RecordedOutcome } from '../core/outcome-record.js';
