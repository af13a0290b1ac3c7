import { metrics, trace, type Counter, type Histogram, type MeterProvider, type Span, type TracerProvider } from '@opentelemetry/api';
import type { StopDecision } from '../core/policy/stop-decision.js';
import type { StopTotals } from '../core/policy/stop-state.js';
import { currentStopObserver, setStopObserver, type DecisionModelCallNotice, type StopObserver, type StopRunEnd } from '../core/stop-observer.js';
import { DECISION_EVENT, decisionEventAttributes, finalDecisionOf, humanWaitsOf, DECISION_MODEL_CALL_EVENT, runEndAttributes, type DecisionModelTally } from './stop-attributes.js';

/** Options of {@link enableStopTelemetry}. */
export interface StopTelemetryOptions {
  /** Where the span of a run that ends with no active span is made (default: the global tracer provider). */
  readonly tracerProvider?: TracerProvider;
  /** Where the metrics go (default: the global meter provider, read when telemetry is enabled: register the SDK first). */
  readonly meterProvider?: MeterProvider;
  /** `gen_ai.agent.name` on the run's span, unless the driver names the agent. */
  readonly agentName?: string;
  /** The task type of a run (`stopwise.task_type`, a dimension of `stopwise.stops`), unless the driver gives one. */
  readonly taskType?: string | ((end: StopRunEnd) => string | undefined);
  /** Add a span event for each decision and each request to the decision model (default true); the run's attributes and the metrics stay. */
  readonly decisionEvents?: boolean;
}

/** The name of the span made for a run that ends with no active span (a stop hook run as a command). */
export const STOP_SPAN_NAME = 'stopwise.stop';

/** The task type given when neither the driver nor the options give one. */
export const UNKNOWN_TASK_TYPE = 'unknown';

const SCOPE = 'stopwise';

/** The observer `enableStopTelemetry` installed, to tell it apart from one installed by other code. */
let installed: StopObserver | undefined;

/**
 * Turns OpenTelemetry on for every driver in the process (`runAgentLoop`, the
 * stop hooks, the AI SDK stop conditions and loops, and `decide` itself):
 *
 * - each decision becomes a span event `stopwise.decision` on the active
 *   span, and each request to the decision model a `stopwise.decision_model_call`
 *   event (a decision is instantaneous and pure: an event, not a span);
 * - the end of a run sets attributes on the run's span (the span active
 *   where the run ended: the caller's around `runAgentLoop` and
 *   `runStopHook`, the AI SDK's `ai.generateText` or `ai.streamText` for
 *   its stop conditions); with no active span it makes a span
 *   `stopwise.stop` that carries them;
 * - the metrics `stopwise.stops` (a counter of the runs that stopped, by
 *   `stopwise.exit`, `stopwise.reason` and `stopwise.task_type`) and
 *   `stopwise.human_wait` (a histogram, ms, one entry per question a person
 *   was asked).
 *
 * Calling it again replaces the options. Without it nothing is recorded.
 *
 * @example
 * // after registering the OpenTelemetry SDK:
 * enableStopTelemetry({ agentName: 'fixer', taskType: 'bugfix' });
 */
export function enableStopTelemetry(options: StopTelemetryOptions = {}): void {
  if (typeof options !== 'object' || options === null) throw new TypeError('enableStopTelemetry takes an options object');
  const { taskType, agentName } = options;
  if (taskType !== undefined && typeof taskType !== 'string' && typeof taskType !== 'function') {
    throw new TypeError('enableStopTelemetry: taskType must be a string or a function of the run end');
  }
  if (agentName !== undefined && typeof agentName !== 'string') throw new TypeError('enableStopTelemetry: agentName must be a string');
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE);
  const stops = meter.createCounter('stopwise.stops', { description: 'Runs that stopped, by exit, reason and task type', unit: '{run}' });
  const humanWait = meter.createHistogram('stopwise.human_wait', { description: 'Time a person took to answer the agent', unit: 'ms' });
  installed = stopTelemetryObserver({ ...options, stops, humanWait });
  setStopObserver(installed);
}

/** Turns the telemetry off: no span event, attribute or metric after it. Leaves an observer that other code installed alone. */
export function disableStopTelemetry(): void {
  if (installed !== undefined && currentStopObserver() === installed) setStopObserver(undefined);
  installed = undefined;
}

/** True while {@link enableStopTelemetry} is in force. */
export function isStopTelemetryEnabled(): boolean {
  return installed !== undefined && currentStopObserver() === installed;
}

interface Instruments extends StopTelemetryOptions {
  readonly stops: Counter;
  readonly humanWait: Histogram;
}

function stopTelemetryObserver(options: Instruments): StopObserver {
  const { stops, humanWait, agentName, decisionEvents = true } = options;
  const tracerProvider = options.tracerProvider;
  // What the decision model did while each span was active, read when a run ends on that span.
  const judged = new WeakMap<Span, DecisionModelTally>();
  const taskTypeOf = (end: StopRunEnd): string => {
    if (end.taskType !== undefined) return end.taskType;
    const given = options.taskType;
    const type = typeof given === 'function' ? given(end) : given;
    return typeof type === 'string' && type !== '' ? type : UNKNOWN_TASK_TYPE;
  };

  return {
    decision(decision: StopDecision, step: number, totals: StopTotals | undefined, policy: string | undefined): void {
      if (!decisionEvents) return;
      const span = trace.getActiveSpan();
      if (span === undefined || !span.isRecording()) return;
      span.addEvent(DECISION_EVENT, decisionEventAttributes(decision, step, totals, policy));
    },
    decisionModelCall(call: DecisionModelCallNotice): void {
      const span = trace.getActiveSpan();
      if (span === undefined || !span.isRecording()) return;
      const inputTokens = tokens(call.usage?.inputTokens);
      const outputTokens = tokens(call.usage?.outputTokens);
      const tally = judged.get(span) ?? { calls: 0, inputTokens: 0, outputTokens: 0 };
      tally.calls += 1;
      tally.inputTokens += inputTokens;
      tally.outputTokens += outputTokens;
      judged.set(span, tally);
      if (decisionEvents) {
        span.addEvent(DECISION_MODEL_CALL_EVENT, { 'stopwise.decision_model.model': String(call.model), 'stopwise.decision_model.input_tokens': inputTokens, 'stopwise.decision_model.output_tokens': outputTokens });
      }
    },
    runEnd(end: StopRunEnd): void {
      const taskType = taskTypeOf(end);
      const waits = humanWaitsOf(end);
      const active = trace.getActiveSpan();
      const attributes = runEndAttributes(end, active === undefined ? undefined : judged.get(active), agentName, taskType, waits);
      if (active === undefined) {
        const tracer = (tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE);
        tracer.startSpan(STOP_SPAN_NAME, { attributes }).end();
      } else if (active.isRecording()) {
        active.setAttributes(attributes);
      }
      const final = finalDecisionOf(end);
      if (final?.kind === 'stop' && final.exit !== undefined) {
        stops.add(1, { 'stopwise.exit': final.exit, 'stopwise.reason': final.reason, 'stopwise.task_type': taskType });
      }
      for (const ms of waits) humanWait.record(ms, { 'stopwise.task_type': taskType });
    },
  };
}

function tokens(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}
