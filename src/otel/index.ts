export { enableStopTelemetry, disableStopTelemetry, isStopTelemetryEnabled, STOP_SPAN_NAME, UNKNOWN_TASK_TYPE } from './stop-telemetry.js';
export type { StopTelemetryOptions } from './stop-telemetry.js';
export { DECISION_EVENT, JUDGE_CALL_EVENT, VALUE_PREFIX } from './stop-attributes.js';
