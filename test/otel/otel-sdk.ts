import { context, metrics, trace, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type DataPoint, type Histogram } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** The real OpenTelemetry SDK, registered globally: spans in memory, metrics read on demand. */
export interface OtelSdk {
  readonly tracer: Tracer;
  spans(): ReadableSpan[];
  /** The data points of one metric, collected now (empty when the metric was never recorded). */
  points(name: string): DataPoint<unknown>[];
  collect(): Promise<void>;
  shutdown(): Promise<void>;
}

export function startOtelSdk(): OtelSdk {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] });
  trace.setGlobalTracerProvider(tracerProvider);
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // The interval never fires during a test: metrics are exported by forceFlush alone.
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 2_000_000_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    tracer: trace.getTracer('test'),
    spans: () => spanExporter.getFinishedSpans(),
    points(name) {
      const exported = metricExporter.getMetrics().at(-1);
      const found = exported?.scopeMetrics.flatMap((scope) => scope.metrics).find((metric) => metric.descriptor.name === name);
      return (found?.dataPoints ?? []) as DataPoint<unknown>[];
    },
    async collect() {
      metricExporter.reset();
      await reader.forceFlush();
    },
    async shutdown() {
      await meterProvider.shutdown();
      await tracerProvider.shutdown();
      trace.disable();
      metrics.disable();
      context.disable();
    },
  };
}

/** A histogram point's value. */
export function histogramOf(point: DataPoint<unknown> | undefined): Histogram {
  if (point === undefined) throw new Error('no histogram point');
  return point.value as Histogram;
}
