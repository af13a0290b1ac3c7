/**
 * Telemetry: every decision and run end as OpenTelemetry span events,
 * attributes and metrics, and the crosswalk of stopwise's exits to other
 * systems' run-level vocabularies.
 *
 * @module
 */
export { enableStopTelemetry, disableStopTelemetry } from './stop-telemetry.js';
export type { StopTelemetryOptions } from './stop-telemetry.js';
export { toExternalStopReason, fromExternalStopReason } from '../core/external-stop-reason.js';
export type { StopVocabulary } from '../core/external-stop-reason.js';
