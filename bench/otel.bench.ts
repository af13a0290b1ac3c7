// The stop telemetry's cost per decision: the same runs of `decide` inside an active span of the real SDK, with the
// telemetry enabled and without it, in the same process. One measured call is one run of 15 decisions and its end.
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, SimpleSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { decide, initialStopState, SEED_STOP_POLICY, type StopState, type TestEvidence } from '../src/index.js';
import { notifyStopEnd, setStopObserver } from '../src/core/stop-observer.js';
import { disableStopTelemetry, enableStopTelemetry } from '../src/otel/index.js';
import { measure, printTable } from './harness.js';

const RUN_LENGTH = 15;
const PASSING: TestEvidence = { passed: true, failed: [], ran: 240 };
const FAILING: TestEvidence = { passed: false, failed: ['parser > handles empty input'], ran: 240 };
const PROBABILITIES = [
  { acceptanceCovered: 0.62, noOpenQuestions: 0.91 },
  { acceptanceCovered: 0.93, noOpenQuestions: 0.81 },
  { acceptanceCovered: 0.2, noOpenQuestions: 0.5 },
];
const OUTPUTS = Array.from({ length: 64 }, (_, i) => `step ${i}: the agent edited src/parser.ts and reran the failing suite`);

/** Spans are exported and dropped: the bench measures recording, not a backend. */
const discard: SpanExporter = {
  export: (_spans: ReadableSpan[], done) => done({ code: 0 }),
  shutdown: async () => undefined,
};

export default async function run(): Promise<void> {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(discard)] });
  trace.setGlobalTracerProvider(tracerProvider);
  const reader = new PeriodicExportingMetricReader({ exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE), exportIntervalMillis: 2_000_000_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(meterProvider);
  enableStopTelemetry({ agentName: 'bench', taskType: 'bench' });
  // The observer the telemetry installed, taken out of the slot: each measured run installs it or not.
  const telemetry = setStopObserver(undefined);
  const tracer = trace.getTracer('bench');

  let k = 0;
  /** One run: 15 decisions of the seed preset inside an active span, then its end, with `observer` installed. */
  const oneRun = (observer: typeof telemetry) => () => {
    setStopObserver(observer);
    tracer.startActiveSpan('invoke_agent bench', (span) => {
      let state: StopState = initialStopState(SEED_STOP_POLICY);
      let last;
      for (let step = 1; step <= RUN_LENGTH; step++) {
        k++;
        const result = decide(SEED_STOP_POLICY, state, {
          step,
          tests: k % 4 === 0 ? FAILING : PASSING,
          probabilities: PROBABILITIES[k % 3] as (typeof PROBABILITIES)[number],
          output: OUTPUTS[k & 63] as string,
          usage: { inputTokens: 900, outputTokens: 120 },
        });
        state = result.state;
        last = result.decision;
      }
      notifyStopEnd({ driver: 'custom', ...(last === undefined ? {} : { decision: last }), totals: state.totals });
      span.end();
    });
  };
  const noObserver = () => {
    setStopObserver(undefined);
    for (let i = 0; i < 1_000; i++) notifyStopEnd({ driver: 'custom' });
  };

  // Alternating rounds, each variant's figure the median over them: a burst of load on a shared machine moves one
  // round, not the verdict.
  const rounds: Record<string, { meanUs: number; p50Us: number }[]> = { without: [], enabled: [], idle: [] };
  for (let round = 0; round < 7; round++) {
    const result = await measure({ without: oneRun(undefined), enabled: oneRun(telemetry), idle: noObserver }, { timeMs: 400, warmupMs: round === 0 ? 300 : 50 });
    for (const name of Object.keys(rounds)) {
      const figure = result[name];
      if (figure === undefined) throw new Error(`benchmark ${name} is missing`);
      rounds[name]?.push(figure);
    }
  }
  // The same runs timed by the process's CPU time: the other processes of a shared machine do not count, this
  // process's garbage collection does.
  const cpu: Record<string, number[]> = { without: [], enabled: [] };
  const RUNS_PER_ROUND = 400;
  for (let round = 0; round < 7; round++) {
    for (const [name, observer] of [['without', undefined], ['enabled', telemetry]] as const) {
      const runOnce = oneRun(observer);
      const start = process.cpuUsage();
      for (let i = 0; i < RUNS_PER_ROUND; i++) runOnce();
      const used = process.cpuUsage(start);
      cpu[name]?.push((used.user + used.system) / (RUNS_PER_ROUND * RUN_LENGTH));
    }
  }
  disableStopTelemetry();
  setStopObserver(undefined);
  const medianOf = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  const cpuWithout = medianOf(cpu.without ?? []);
  const cpuEnabled = medianOf(cpu.enabled ?? []);
  const median = (name: string, key: 'meanUs' | 'p50Us'): number => {
    const sorted = (rounds[name] ?? []).map((figure) => figure[key]).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] as number;
  };
  const without = { meanUs: median('without', 'meanUs'), p50Us: median('without', 'p50Us') };
  const enabled = { meanUs: median('enabled', 'meanUs'), p50Us: median('enabled', 'p50Us') };
  const idle = { meanUs: median('idle', 'meanUs') };
  const perDecision = (us: number) => us / RUN_LENGTH;
  printTable(
    'stop telemetry per decision (seed preset, 15 decisions and one run end per span, real SDK, spans discarded; medians of 7 rounds)',
    ['variant', 'CPU µs per decision', 'wall µs (mean)', 'wall µs (p50)', 'CPU ratio'],
    [
      ['without telemetry', cpuWithout.toFixed(2), perDecision(without.meanUs).toFixed(2), perDecision(without.p50Us).toFixed(2), '1.00'],
      ['telemetry enabled', cpuEnabled.toFixed(2), perDecision(enabled.meanUs).toFixed(2), perDecision(enabled.p50Us).toFixed(2), (cpuEnabled / cpuWithout).toFixed(2)],
    ],
  );
  const overheadCpuUs = cpuEnabled - cpuWithout;
  const overheadUs = perDecision(enabled.meanUs) - perDecision(without.meanUs);
  const overheadP50Us = perDecision(enabled.p50Us) - perDecision(without.p50Us);
  console.log(`\noverhead per decision: ${overheadCpuUs.toFixed(2)} µs of CPU time (goal <= 5 µs: ${overheadCpuUs <= 5 ? 'met' : 'NOT met'})`);
  console.log(`wall time, for comparison: ${overheadUs.toFixed(2)} µs by the mean, ${overheadP50Us.toFixed(2)} µs by the p50 (the mean moves with the machine's load)`);
  console.log(`a notification with no observer installed: ${idle.meanUs.toFixed(1)} ns (the mean of 1000 calls in µs is ns per call)`);
  await meterProvider.shutdown();
  await tracerProvider.shutdown();
  trace.disable();
  metrics.disable();
  context.disable();
}
