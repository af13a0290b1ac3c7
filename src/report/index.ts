/**
 * How runs end, over time: the outcomes file (`appendOutcomeRecord`), its
 * report (exits per task type, limit-stop alerts, the review queue, people's
 * answer times) as data, text or an HTML page, and limits suggested from the
 * successful runs.
 *
 * @module
 */
export { appendOutcomeRecord } from './append-outcome-record.js';
export { toOutcomeRecord } from '../core/outcome-record.js';
export type { OutcomeRecord } from '../core/outcome-record.js';
export { readOutcomeRecordsFile } from './read-outcome-records-file.js';
export { parseOutcomeRecords } from './parse-outcome-records.js';
export { buildOutcomeReport } from './outcome-report.js';
export type { OutcomeReport, OutcomeReportOptions } from './outcome-report.js';
export { renderOutcomeReport } from './outcome-report-html.js';
export { summarizeOutcomes } from '../core/summarize-outcomes.js';
export type { OutcomeSummary } from '../core/summarize-outcomes.js';
export { suggestLimits } from '../core/suggest-limits.js';
export type { LimitSuggestion } from '../core/suggest-limits.js';
